/**
 * The deletion state of a workspace, kept on the organization item (`deletion` attribute), and the freeze flag on
 * its keys (`frozenUntil`, read by authentication for free). Scheduling and cancelling change both in one
 * transaction, so a key is frozen exactly while the organization says deletion is scheduled.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { db, tableName } from '#db/client';
import { orgItemKey } from '#db/orgs';
import { keyFreezeUpdates } from '#db/api-keys';
import { transactWrite, type TransactItem } from '#db/transact';
import { Conflict } from '#domain/errors';

/** A scheduled deletion. Times are ISO UTC. */
export interface DeletionState {
  deletionId: string;
  /** `scheduled` during the grace period; `purging` once the purge started (no longer cancellable). */
  state: 'scheduled' | 'purging';
  requestedAt: string;
  requestedBy: string;
  dueAt: string;
  /** The one-time schedule that runs the purge. */
  scheduleName: string;
  purgeStartedAt?: string;
  /** Purge steps finished so far, in order (resuming skips nothing: each step is idempotent). */
  purgeSteps?: string[];
  /** Why its purge schedule could not be created (shared/use-cases/schedule-relay.ts): no purge will run. */
  scheduleError?: string;
}

/** The organization's deletion state, or null when none is scheduled. */
export async function getDeletionState(orgId: string, consistent = false): Promise<DeletionState | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: orgItemKey(orgId), ProjectionExpression: 'deletion', ConsistentRead: consistent }));
  return (out.Item?.deletion as DeletionState | undefined) ?? null;
}

/**
 * Records a scheduled deletion and freezes every key, atomically, with `also` (the owner's queued notice).
 * @throws Conflict when a deletion is already scheduled (a concurrent request won)
 */
export async function recordDeletionScheduled(orgId: string, d: DeletionState, also: TransactItem[] = []): Promise<void> {
  await transactWrite(
    [
      {
        Update: {
          TableName: tableName(),
          Key: orgItemKey(orgId),
          UpdateExpression: 'SET deletion = :d',
          ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(deletion)',
          ExpressionAttributeValues: { ':d': d },
        },
      },
      ...(await keyFreezeUpdates(orgId, d.dueAt)),
      ...also,
    ],
    () => new Conflict('A deletion of this workspace is already scheduled.'),
  );
}

/**
 * Clears a scheduled (not yet purging) deletion and unfreezes every key, atomically, with `also` (the request to
 * delete its purge schedule).
 * @throws Conflict when the purge has started (or the deletion changed meanwhile)
 */
export async function clearScheduledDeletion(orgId: string, deletionId: string, also: TransactItem[] = []): Promise<void> {
  await transactWrite(
    [
      {
        Update: {
          TableName: tableName(),
          Key: orgItemKey(orgId),
          UpdateExpression: 'REMOVE deletion',
          ConditionExpression: 'deletion.deletionId = :id AND deletion.#state = :scheduled',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':id': deletionId, ':scheduled': 'scheduled' },
        },
      },
      ...(await keyFreezeUpdates(orgId, null)),
      ...also,
    ],
    () => new Conflict('The purge of this workspace has already started; it can no longer be cancelled.'),
  );
}

/**
 * Records on deletion `deletionId` (while still scheduled) that its purge schedule could not be created.
 * @returns false when that deletion is no longer scheduled (cancelled, rescheduled, purging)
 */
export async function recordDeletionScheduleError(orgId: string, deletionId: string, error: string): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: orgItemKey(orgId),
        UpdateExpression: 'SET deletion.scheduleError = :e',
        ConditionExpression: 'deletion.deletionId = :id AND deletion.#state = :scheduled',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':e': error, ':id': deletionId, ':scheduled': 'scheduled' },
      }),
    );
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}

/**
 * Moves deletion `deletionId` to `purging` (idempotent: a resumed purge finds it purging already).
 * @returns false when the organization has no such deletion (cancelled, rescheduled, or already purged)
 */
export async function markPurging(orgId: string, deletionId: string, now: Date): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: orgItemKey(orgId),
        UpdateExpression: 'SET deletion.#state = :purging, deletion.purgeStartedAt = if_not_exists(deletion.purgeStartedAt, :now)',
        ConditionExpression: 'deletion.deletionId = :id',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':purging': 'purging', ':now': now.toISOString(), ':id': deletionId },
      }),
    );
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}

/** Records that purge step `step` finished (progress, for operators and a resumed run's logs). */
export async function recordPurgeStep(orgId: string, deletionId: string, step: string): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: orgItemKey(orgId),
      UpdateExpression: 'SET deletion.purgeSteps = list_append(if_not_exists(deletion.purgeSteps, :empty), :step)',
      ConditionExpression: 'deletion.deletionId = :id',
      ExpressionAttributeValues: { ':empty': [], ':step': [step], ':id': deletionId },
    }),
  );
}
