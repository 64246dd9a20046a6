/**
 * Deadline reminders of a deal (spec "Transactions": `POST .../reminders`). Each lives in the deal's item collection,
 * `PK = ORG#<orgId>#TXN#<txnId>`, `SK = REMINDER#<id>`, so the deal read lists it.
 *
 * States: `pending` → `sending` (claimed by the send, so two runs cannot both send) → `sent` | `failed`;
 * `pending` → `expired` when its key date moved so that its time had already passed; `pending` → `failed` also when
 * its schedule could not be created (shared/use-cases/schedule-relay.ts). `generation` counts its
 * schedules: moving the reminder requests schedule `generation + 1` and bumps it, so a run of an older schedule
 * finds another generation and sends nothing.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { db, tableName } from '#db/client';
import { txnPk } from '#db/keys';
import type { TransactItem } from '#db/transact';
import { NotFound } from '#domain/errors';
import { setExpression } from '#db/set-expression';

export type ReminderStatus = 'pending' | 'sending' | 'sent' | 'failed' | 'expired';

export interface Reminder {
  id: string;
  transactionId: string;
  status: ReminderStatus;
  /** The key-date type it counts down to (it follows that key date), or null for a fixed deadline. */
  deadlineType: string | null;
  /** The deadline, a calendar date `YYYY-MM-DD`. */
  deadlineDate: string;
  daysBeforeReminder: number;
  /** `HH:mm` in `timezone`. */
  reminderTimeOfDay: string;
  /** The organization's IANA time zone when it was created. */
  timezone: string;
  /** Wall-clock send time `YYYY-MM-DDTHH:mm:ss` in `timezone`, and the instant (ISO UTC). */
  scheduledLocal: string;
  sendAt: string;
  emailTemplateId: string;
  recipientRoles: string[];
  recipientEmails: string[];
  note: string | null;
  milestoneId: string | null;
  /** Its schedule's generation: 1, plus one per move (the schedule is `rem-<id>-<generation>`). */
  generation: number;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
  sentAt: string | null;
  /** The communication it became, once sent. */
  sentMessageId: string | null;
  error: string | null;
}

/** Sort-key prefix of reminders in the deal's collection (shared/db/transactions.ts reads them with the deal). */
export const REMINDER_SK = 'REMINDER#';

const key = (orgId: string, transactionId: string, id: string) => ({ PK: txnPk(orgId, transactionId), SK: `${REMINDER_SK}${id}` });

export function toReminder(item: Record<string, any>): Reminder {
  const { PK: _pk, SK: _sk, entity: _e, orgId: _o, ...r } = item;
  return {
    ...(r as Reminder),
    note: r.note ?? null,
    milestoneId: r.milestoneId ?? null,
    createdBy: r.createdBy ?? null,
    sentAt: r.sentAt ?? null,
    sentMessageId: r.sentMessageId ?? null,
    error: r.error ?? null,
  };
}

/** The conditional `Put` of a new reminder. */
export function reminderPut(orgId: string, r: Reminder): TransactItem {
  return { Put: { TableName: tableName(), Item: { ...key(orgId, r.transactionId, r.id), entity: 'Reminder', orgId, ...r }, ConditionExpression: 'attribute_not_exists(PK)' } };
}

/** The reminder. @throws NotFound when absent or another organization's */
export async function getReminder(orgId: string, transactionId: string, id: string): Promise<Reminder> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: key(orgId, transactionId, id), ConsistentRead: true }));
  if (!out.Item) throw new NotFound('Reminder');
  return toReminder(out.Item);
}

/** The conditional `Update` of `updateReminder`, for a transaction (a move commits with its schedule requests). */
export function reminderUpdate(
  orgId: string,
  r: Pick<Reminder, 'transactionId' | 'id'>,
  expect: { from: ReminderStatus; generation: number },
  set: Partial<Omit<Reminder, 'id' | 'transactionId'>>,
) {
  const update = setExpression(set);
  return {
    Update: {
      TableName: tableName(),
      Key: key(orgId, r.transactionId, r.id),
      UpdateExpression: update.expression,
      ConditionExpression: '#status = :from AND #generation = :gen',
      ExpressionAttributeNames: { ...update.names, '#status': 'status', '#generation': 'generation' },
      ExpressionAttributeValues: { ...update.values, ':from': expect.from, ':gen': expect.generation },
    },
  } satisfies TransactItem;
}

/**
 * Updates a reminder on condition that it is in `from` at `generation`: at most one of concurrent updates wins.
 * @returns true when it was updated; false when it was not in that state and generation (or is gone)
 */
export async function updateReminder(
  orgId: string,
  r: Pick<Reminder, 'transactionId' | 'id'>,
  expect: { from: ReminderStatus; generation: number },
  set: Partial<Omit<Reminder, 'id' | 'transactionId'>>,
): Promise<boolean> {
  try {
    await db().send(new UpdateCommand(reminderUpdate(orgId, r, expect, set).Update));
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}
