/**
 * Workspace deletion (spec "States and transitions", Organization): the owner schedules it by confirming the
 * workspace name; the workspace is frozen (writes refused) for a grace period, then the purge runs
 * (functions/workspace-purge). Cancelling during the grace period unfreezes it and deletes the schedule.
 */
import { randomUUID } from 'node:crypto';
import { getOrganization } from '#db/orgs';
import { clearScheduledDeletion, getDeletionState, recordDeletionScheduled, type DeletionState } from '#db/workspace-deletion';
import type { Principal } from '#db/api-keys';
import { clockNow } from '#ports/clock';
import { scheduleCancelPut, scheduleRequestPut } from '#use-cases/schedule-requests';
import { DELETION_GRACE_DAYS, DELETION_GRACE_SECONDS, utcSecondsAfter } from '#domain/workspace-lifecycle';
import { Forbidden, InvalidInput, NotFound } from '#domain/errors';
import { ownerAddress, publicBaseUrl, queuedWorkspaceNotice } from '#use-cases/workspace-mail';

/** Deletion status as the API reports it. Times ISO UTC. */
export interface DeletionStatus {
  scheduled: boolean;
  /** `scheduled` (cancellable) or `purging`, null when nothing is scheduled. */
  state: DeletionState['state'] | null;
  requestedAt: string | null;
  /** When the purge falls due. */
  dueAt: string | null;
  gracePeriodDays: number;
  gracePeriodSeconds: number;
  isOwner: boolean;
  /** Why no purge will run (its schedule could not be created: `DeletionState.scheduleError`); null otherwise. */
  error: string | null;
}

/** The purge schedule's name (EventBridge Scheduler: at most 64 of letters, digits, `-`). */
export const purgeScheduleNameOf = (deletionId: string) => `purge-${deletionId}`;

/**
 * The organization, checked to be the caller's and owned by the caller. An organization key acts as the user who
 * created it: a key created by the owner is the owner (docs/workspace-lifecycle.md).
 * @throws NotFound when the organization is gone; Forbidden when the caller is not the owner
 */
async function ownedOrganization(principal: Principal) {
  const org = await getOrganization(principal.orgId, true);
  if (!org) throw new NotFound('Organization');
  if (org.ownerUserId !== principal.userId) throw new Forbidden('Only the workspace owner can do this.');
  return org;
}

/** The deletion status (any reader). */
export async function deletionStatus(principal: Principal): Promise<DeletionStatus> {
  const org = await getOrganization(principal.orgId);
  if (!org) throw new NotFound('Organization');
  const d = await getDeletionState(principal.orgId);
  return {
    scheduled: d !== null,
    state: d?.state ?? null,
    requestedAt: d?.requestedAt ?? null,
    dueAt: d?.dueAt ?? null,
    gracePeriodDays: DELETION_GRACE_DAYS,
    gracePeriodSeconds: DELETION_GRACE_SECONDS,
    isOwner: org.ownerUserId === principal.userId,
    error: d?.scheduleError ?? null,
  };
}

/**
 * Schedules the deletion: records it, freezes the keys, queues the owner's notice (with its cancel link) and requests
 * the purge schedule at `now` + the grace period (`schedule.requested`), in one transaction; the send worker emails
 * the notice and the outbox relay creates the schedule (one it cannot create is recorded on the deletion as
 * `scheduleError`, logged and alarmed; the workspace stays frozen and nothing is deleted until the owner cancels). A
 * request while one is scheduled returns it as is.
 * @param confirmName must equal the workspace name exactly (case and spaces included)
 * @returns the status and `emailed`: whether this call queued the notice (false when one was already scheduled); a
 *   notice the worker then fails to send is logged and counted (`ServiceEmailsFailed`), the deletion stands
 * @throws Forbidden (not the owner); InvalidInput `{confirmName}` on a mismatch (nothing scheduled)
 */
export async function requestDeletion(principal: Principal, confirmName: string | null, now: Date): Promise<DeletionStatus & { alreadyScheduled: boolean; emailed: boolean }> {
  const org = await ownedOrganization(principal);
  if (confirmName !== org.name) throw new InvalidInput({ confirmName: 'must equal the workspace name exactly' }, 'confirmName does not match the workspace name; nothing was scheduled.');
  const existing = await getDeletionState(principal.orgId, true);
  if (existing) return { ...(await deletionStatus(principal)), alreadyScheduled: true, emailed: false };

  const deletionId = randomUUID();
  const due = utcSecondsAfter(now, DELETION_GRACE_SECONDS);
  const d: DeletionState = {
    deletionId,
    state: 'scheduled',
    requestedAt: now.toISOString(),
    requestedBy: principal.userId,
    dueAt: due.iso,
    scheduleName: purgeScheduleNameOf(deletionId),
  };
  const notice = await cancelLinkNotice(principal, d, now);
  const purge = { name: d.scheduleName, at: due.at, timezone: 'UTC', target: 'workspace-purge' as const, payload: { orgId: principal.orgId, deletionId } };
  await recordDeletionScheduled(principal.orgId, d, [...notice, scheduleRequestPut(principal, purge, { kind: 'workspace_deletion', deletionId }, now)]);
  return { ...(await deletionStatus(principal)), alreadyScheduled: false, emailed: true };
}

/** The owner's notice of deletion `d`, with the cancel link, queued (the writes for the scheduling transaction). */
async function cancelLinkNotice(principal: Principal, d: DeletionState, now: Date) {
  const { email, workspaceName } = await ownerAddress(principal.orgId);
  const cancelUrl = `${publicBaseUrl()}/api/v1/account/deletion/cancel`;
  return queuedWorkspaceNotice(
    principal,
    email,
    `Workspace "${workspaceName}" is scheduled for deletion`,
    [
      `The workspace "${workspaceName}" is scheduled for deletion. It is frozen now (reads work, changes are refused)`,
      `and everything in it will be deleted at ${d.dueAt} (UTC).`,
      '',
      'To cancel the deletion before then, POST to this link with an API key you created that has the actions scope:',
      cancelUrl,
      `(for example: curl -X POST -H "Authorization: Bearer <your key>" ${cancelUrl})`,
      '',
      'To keep a copy of your data, request an export first: POST /api/v1/account/export/request.',
    ].join('\n'),
    now,
  );
}

/**
 * Cancels a scheduled deletion: unfreezes the keys and requests the purge schedule's deletion, in one transaction.
 * @returns `cancelled: false` when nothing was scheduled
 * @throws Forbidden (not the owner); Conflict when the purge has already started
 */
export async function cancelDeletion(principal: Principal): Promise<{ cancelled: boolean }> {
  await ownedOrganization(principal);
  const d = await getDeletionState(principal.orgId, true);
  if (!d) return { cancelled: false };
  // A schedule left behind (its deletion lagging or failing) is harmless: the purge ignores a deletion that is not recorded.
  await clearScheduledDeletion(principal.orgId, d.deletionId, [scheduleCancelPut(principal, d.scheduleName, { kind: 'workspace_deletion', deletionId: d.deletionId }, clockNow())]);
  return { cancelled: true };
}
