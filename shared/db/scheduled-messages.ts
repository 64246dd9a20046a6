/**
 * Scheduled emails of a deal (spec "Messaging": scheduled messages list/create, `DELETE /scheduled-messages/{id}`).
 * `PK = ORG#<orgId>#SCHEDMSG#<id>`, `SK = SCHED`; listed on its deal by GSI1 `<sendAt>#<id>` in one partition per
 * list: `ORG#<orgId>#TXN#<txnId>#SCHEDULED` while pending or sending, then `…#SCHEDULED#<sent|cancelled|failed>`, so
 * each `status` filter of the list is one bounded `Query` and history stays listable. (Messages that ended before
 * this layout left GSI1 and are not listed.)
 *
 * States: `pending` → `sending` (claimed when the schedule fires, in the transaction that queues the email) →
 * `sent` | `failed` (set by the send worker with the message's outcome); `pending` → `cancelled`. The schedule that fires the send (EventBridge Scheduler in AWS) is named by `scheduleName`.
 */
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { db, tableName } from '#db/client';
import { gsi1, scheduledMessageIdOfPk, scheduledMessagePk } from '#db/keys';
import type { TransactItem } from '#db/transact';
import { NotFound } from '#domain/errors';

export type ScheduledMessageStatus = 'pending' | 'sending' | 'sent' | 'cancelled' | 'failed';

/** The email to send, as the schedule request gave it. */
export interface ScheduledEmail {
  toEmail: string | null;
  ccAddresses: string | null;
  bccAddresses: string | null;
  subject: string | null;
  body: string | null;
  htmlBody: string | null;
  fromAccountId: string | null;
  documentIds: string[];
  /** documentId → file name to attach it as. */
  documentFileNames: Record<string, string>;
}

export interface ScheduledMessage {
  id: string;
  transactionId: string;
  status: ScheduledMessageStatus;
  /** The instant to send, ISO 8601 UTC. */
  sendAt: string;
  /** The wall-clock time as requested (`YYYY-MM-DDTHH:mm:ss`) and its IANA time zone. */
  scheduledLocal: string;
  scheduledTimezone: string;
  email: ScheduledEmail;
  scheduleName: string;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
  /** The communication it became, once sent. */
  sentMessageId: string | null;
  error: string | null;
}

const key = (orgId: string, id: string) => ({ PK: scheduledMessagePk(orgId, id), SK: 'SCHED' });

/** The scheduled message id of an item key of this module (the purge finds schedules to delete), else undefined. */
export function scheduledMessageIdOfKey(k: { PK: string; SK: string }): string | undefined {
  return k.SK === 'SCHED' ? scheduledMessageIdOfPk(k.PK) : undefined;
}
const dealGsi1 = gsi1.dealScheduledMessages;

function toScheduledMessage(item: Record<string, any>): ScheduledMessage {
  const { id, transactionId, status, sendAt, scheduledLocal, scheduledTimezone, email, scheduleName, createdBy, createdAt, updatedAt, sentMessageId, error } = item;
  return { id, transactionId, status, sendAt, scheduledLocal, scheduledTimezone, email, scheduleName, createdBy: createdBy ?? null, createdAt, updatedAt, sentMessageId: sentMessageId ?? null, error: error ?? null };
}

/** The conditional `Put` of a new pending scheduled message. */
export function scheduledMessagePut(orgId: string, m: ScheduledMessage): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...key(orgId, m.id), entity: 'ScheduledMessage', orgId, ...m, GSI1PK: dealGsi1(orgId, m.transactionId), GSI1SK: `${m.sendAt}#${m.id}` },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

/** The scheduled message. @throws NotFound when absent or another organization's */
export async function getScheduledMessage(orgId: string, id: string, consistent = false): Promise<ScheduledMessage> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: key(orgId, id), ConsistentRead: consistent }));
  if (!out.Item) throw new NotFound('Scheduled message');
  return toScheduledMessage(out.Item);
}

/** What `GET …/scheduled-messages?status=` filters on; `pending` includes messages being sent. */
export type ScheduledListStatus = 'pending' | 'sent' | 'cancelled' | 'failed';

/** The GSI1 partition a message in `status` is listed in. */
const listPartition = (orgId: string, transactionId: string, status: ScheduledMessageStatus) =>
  status === 'pending' || status === 'sending' ? dealGsi1(orgId, transactionId) : gsi1.dealScheduledMessagesEnded(orgId, transactionId, status);

/**
 * A deal's scheduled messages in one status (default `pending`: pending or being sent), soonest first; one `Query`
 * of at most `limit` items.
 */
export async function listScheduledMessages(orgId: string, transactionId: string, status: ScheduledListStatus = 'pending', limit = 100): Promise<ScheduledMessage[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': listPartition(orgId, transactionId, status) },
      Limit: limit,
    }),
  );
  return (out.Items ?? []).map(toScheduledMessage);
}

/**
 * The conditional `Update` moving a scheduled message from one status to another (and to the deal's list of its new
 * status), for a transaction; it happens at most once.
 */
export function scheduledMessageTransition(
  orgId: string,
  m: Pick<ScheduledMessage, 'id' | 'transactionId'>,
  from: ScheduledMessageStatus,
  to: ScheduledMessageStatus,
  now: Date,
  set: { sentMessageId?: string; error?: string | null } = {},
): TransactItem {
  const values: Record<string, unknown> = { ':from': from, ':to': to, ':now': now.toISOString(), ':list': listPartition(orgId, m.transactionId, to) };
  const sets = ['#s = :to', 'updatedAt = :now', 'GSI1PK = :list'];
  if (set.sentMessageId !== undefined) (sets.push('sentMessageId = :mid'), (values[':mid'] = set.sentMessageId));
  if (set.error !== undefined) (sets.push('#e = :err'), (values[':err'] = set.error));
  return {
    Update: {
      TableName: tableName(),
      Key: key(orgId, m.id),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: '#s = :from',
      ExpressionAttributeNames: { '#s': 'status', ...(set.error !== undefined ? { '#e': 'error' } : {}) },
      ExpressionAttributeValues: values,
    },
  };
}

/**
 * Moves a scheduled message from one status to another (`scheduledMessageTransition`), conditionally.
 * @returns true when it moved; false when the message was not in `from` (or is gone)
 */
export async function transitionScheduledMessage(
  orgId: string,
  m: Pick<ScheduledMessage, 'id' | 'transactionId'>,
  from: ScheduledMessageStatus,
  to: ScheduledMessageStatus,
  now: Date,
  set: { sentMessageId?: string; error?: string | null } = {},
): Promise<boolean> {
  try {
    await db().send(new UpdateCommand(scheduledMessageTransition(orgId, m, from, to, now, set).Update as ConstructorParameters<typeof UpdateCommand>[0]));
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}

/**
 * The API's view of a scheduled message: the email's fields flat, as the request named them, `scheduledAt` as the
 * wall-clock time in `scheduledTimezone`, and `sendAt` as the instant (ISO UTC).
 */
export function scheduledMessageView(m: ScheduledMessage) {
  const { email, scheduledLocal, scheduleName: _name, ...rest } = m;
  return { ...rest, scheduledAt: scheduledLocal, ...email };
}
