/**
 * Outbound sends: what the send worker needs to hand one queued message to its provider, and the record of its
 * attempt. `PK = ORG#<orgId>#MSG#<messageId>` (the message's reference partition), `SK = SEND`, written in the same
 * transaction as the `queued` message and its `message.queued` outbox event.
 *
 * States: `queued` → `sending` (the attempt, recorded before the provider is called, with `attemptAt`) → `sent` |
 * `failed` | `unknown` (an attempt interrupted after it may have reached the provider: never retried, so a client
 * never gets a duplicate). A final send drops what only the transport needed (an SMS body may carry a share link's
 * token) and expires after `SEND_RETENTION_SECONDS`.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { db, tableName } from '#db/client';
import { messageRefPk } from '#db/keys';
import type { MessageDocument } from '#db/communications';
import type { OutboundEmail } from '#ports/mailer';
import type { TransactItem } from '#db/transact';

export type SendState = 'queued' | 'sending' | 'sent' | 'failed' | 'unknown';

/**
 * An email as the worker sends it (the mail port's `OutboundEmail`: the Message-ID is `<messageId@domain>`,
 * deterministic per message), with the attachments as the deal's documents, read when sending.
 */
export type EmailSend = Omit<OutboundEmail, 'attachments'> & {
  channel: 'email';
  /** The member's mailbox to send through, or null for the service's sender. */
  accountId: string | null;
  attachments: MessageDocument[];
};

/** A text as the worker sends it (`body` as sent, link tokens included). */
export interface SmsSend {
  channel: 'sms';
  to: string;
  body: string;
}

/** One outbound send. Times are ISO 8601. */
export interface OutboundSend {
  orgId: string;
  messageId: string;
  transactionId: string;
  /** The message's `createdAt` (its sort key in the deal's communications). */
  messageCreatedAt: string;
  state: SendState;
  /** When the current attempt started (`sending`), else null. */
  attemptAt: string | null;
  /** Absent once final. */
  payload?: EmailSend | SmsSend;
  /** The scheduled message this send completes, if any. */
  scheduledMessageId: string | null;
  /** The member it is sent as (null: the service). */
  sentBy: string | null;
}

/** Seconds a final send is kept (its TTL): long enough to answer a late duplicate event. */
export const SEND_RETENTION_SECONDS = 30 * 86_400;

const key = (orgId: string, messageId: string) => ({ PK: messageRefPk(orgId, messageId), SK: 'SEND' });

/** The conditional `Put` of a new `queued` send, for the transaction that records its message. */
export function outboundSendPut(s: Omit<OutboundSend, 'state' | 'attemptAt'>): TransactItem {
  return { Put: { TableName: tableName(), Item: { ...key(s.orgId, s.messageId), entity: 'OutboundSend', ...s, state: 'queued', attemptAt: null }, ConditionExpression: 'attribute_not_exists(PK)' } };
}

/** The send of a message, read strongly consistent, or undefined. */
export async function getOutboundSend(orgId: string, messageId: string): Promise<OutboundSend | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: key(orgId, messageId), ConsistentRead: true }));
  if (!out.Item) return undefined;
  const { PK: _pk, SK: _sk, entity: _e, ttl: _t, ...send } = out.Item;
  return send as OutboundSend;
}

/**
 * Records the attempt before the provider is called: `queued` → `sending` with `attemptAt = now`, conditionally.
 * @returns true when this call owns the attempt; false when another already started (or finished) it
 */
export const claimOutboundSend = (orgId: string, messageId: string, now: Date): Promise<boolean> => claimSendAttempt(key(orgId, messageId), now);

/**
 * The attempt rule of any queued send item (`state`, `attemptAt`; this module's sends and shared/db/service-emails.ts):
 * `queued` → `sending` with `attemptAt = now`, conditional on `queued`.
 * @param Key the send item's key
 * @returns true when this call owns the attempt; false when another already started (or finished) it
 */
export async function claimSendAttempt(Key: Record<string, string>, now: Date): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key,
        UpdateExpression: 'SET #s = :sending, attemptAt = :now',
        ConditionExpression: '#s = :queued',
        ExpressionAttributeNames: { '#s': 'state' },
        ExpressionAttributeValues: { ':sending': 'sending', ':queued': 'queued', ':now': now.toISOString() },
      }),
    );
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}

/**
 * The `Update` that closes a send: `sending` → `state`, payload dropped, TTL set. In the transaction that marks the
 * message, so the thread and the send never disagree.
 */
export const outboundSendFinish = (orgId: string, messageId: string, state: 'sent' | 'failed' | 'unknown', now: Date): TransactItem => sendAttemptFinish(key(orgId, messageId), state, now);

/** The `Update` that closes any send item (`sending` → `state`, `payload` dropped, TTL `SEND_RETENTION_SECONDS`). */
export function sendAttemptFinish(Key: Record<string, string>, state: 'sent' | 'failed' | 'unknown', now: Date): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key,
      UpdateExpression: 'SET #s = :state, finishedAt = :now, #ttl = :ttl REMOVE payload',
      ConditionExpression: '#s = :sending',
      ExpressionAttributeNames: { '#s': 'state', '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':state': state, ':sending': 'sending', ':now': now.toISOString(), ':ttl': Math.floor(now.getTime() / 1000) + SEND_RETENTION_SECONDS },
    },
  };
}

/**
 * Gives an attempt back (`sending` → `queued`) when the provider certainly did not take the message (it answered
 * with an error, or the attempt failed before calling it), so a retry may send it.
 * @returns false when the send was not `sending` at `attemptAt`
 */
export const releaseOutboundSend = (orgId: string, messageId: string, attemptAt: string): Promise<boolean> => releaseSendAttempt(key(orgId, messageId), attemptAt);

/** `releaseOutboundSend` for any send item. @param Key the send item's key @returns false when it was not `sending` at `attemptAt` */
export async function releaseSendAttempt(Key: Record<string, string>, attemptAt: string): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key,
        UpdateExpression: 'SET #s = :queued, attemptAt = :null',
        ConditionExpression: '#s = :sending AND attemptAt = :at',
        ExpressionAttributeNames: { '#s': 'state' },
        ExpressionAttributeValues: { ':queued': 'queued', ':sending': 'sending', ':at': attemptAt, ':null': null },
      }),
    );
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}
