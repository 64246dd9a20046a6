/**
 * Communications: every message of a deal, whatever its channel (spec "Messaging": email and SMS unified into
 * one per-deal thread). A message lives in its deal's communications partition, so the merged thread is one
 * strongly consistent `Query` in time order:
 * - message: `PK = ORG#<orgId>#TXN#<txnId>#COMMS`, `SK = MSG#<createdAt>#<messageId>`; an SMS message is also in
 *   GSI1 `ORG#<orgId>#THREAD#<threadId>` / `<createdAt>#<messageId>` (its conversation, see conversations.ts);
 * - reference: `PK = ORG#<orgId>#MSG#<messageId>`, `SK = MSG` → where the message is (status updates, replies);
 * - a message with a contact is in GSI2 `ORG#<orgId>#CONTACT#<contactId>#COMMS` / `<createdAt>#<messageId>` (the
 *   contact's recent activity across deals);
 * - provider reference: `PK = PROVIDERMSG#<provider>#<providerMessageId>`, `SK = REF` → the message a provider's
 *   event (SES bounce, SMS delivery receipt) is about. The one key that does not start with the organization:
 *   the provider's event names only its own id. The item carries `orgId`.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { db, tableName } from '#db/client';
import { commsPk, gsi1, gsi2, messageRefPk } from '#db/keys';
import type { TransactItem } from '#db/transact';
import { NotFound } from '#domain/errors';

export type Channel = 'email' | 'sms' | 'in_app';
export type Direction = 'outbound' | 'inbound';

/**
 * Where a message stands. Outbound: `queued` (recorded, being handed to the provider) → `sent` (accepted) →
 * `delivered`, or `bounced` / `complained` (email) / `failed`. Inbound: `received`.
 */
export type MessageStatus = 'queued' | 'sent' | 'delivered' | 'bounced' | 'complained' | 'failed' | 'blocked' | 'received';

/** What sent a message (the operation or flow), shown in the thread and the communication log. */
export type MessageKind =
  | 'email'
  | 'agent_email'
  | 'agent_followup_email'
  | 'client_update_email'
  | 'document_request_email'
  | 'scheduled_email'
  | 'reminder_email'
  | 'sms'
  | 'document_share_sms'
  | 'reply'
  | 'auto_reply';

/** An address or number with an optional display name. */
export interface Party {
  address: string;
  name: string | null;
  /** The deal's contact this party is, when known. */
  contactId: string | null;
}

/** A document attached to an email or shared by link. */
export interface MessageDocument {
  documentId: string;
  fileName: string;
}

/** One message of a deal's communications. Times are ISO 8601. */
export interface Communication {
  id: string;
  transactionId: string;
  channel: Channel;
  direction: Direction;
  kind: MessageKind;
  status: MessageStatus;
  /** Why it was blocked or failed, or the provider's bounce/complaint detail. */
  statusDetail: string | null;
  /** SMS conversation, or null for email. */
  threadId: string | null;
  from: Party;
  to: Party[];
  cc: Party[];
  bcc: Party[];
  /** Email subject; null for SMS. */
  subject: string | null;
  bodyText: string;
  bodyHtml: string | null;
  /** RFC 5322 Message-ID of an email (`<…>`), for threading replies. */
  emailMessageId: string | null;
  /** The message this one answers (our id), when known. */
  inReplyTo: string | null;
  documents: MessageDocument[];
  /** The role the message was addressed to (agent and client emails), matched exactly. */
  recipientRole: string | null;
  /**
   * What the sender said the message is for (the templated emails' `intent`, `topic`, `tone`, `focus`, `audience`,
   * `documentTypes`; a share's link expiry), or null.
   */
  context: Record<string, unknown> | null;
  /** The provider and its id for this message (e.g. `ses`, `sms`, `local`). */
  provider: string | null;
  providerMessageId: string | null;
  /** The scheduled message that sent it, if any. */
  scheduledMessageId: string | null;
  /** The contact the message is with (recipient of an outbound one, sender of an inbound one), when known. */
  contactId: string | null;
  /** The member who sent it (null for inbound and automatic messages). */
  sentBy: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What every new message states; the rest defaults to empty (no thread, recipients, subject, documents, ...). */
export type NewCommunication = Pick<Communication, 'transactionId' | 'channel' | 'direction' | 'kind' | 'status' | 'from' | 'bodyText'> & Partial<Communication>;

/** A new message with a fresh id, created and updated at `at`. */
export function newCommunication(m: NewCommunication, at: Date): Communication {
  return {
    id: randomUUID(),
    statusDetail: null,
    threadId: null,
    to: [],
    cc: [],
    bcc: [],
    subject: null,
    bodyHtml: null,
    emailMessageId: null,
    inReplyTo: null,
    documents: [],
    recipientRole: null,
    context: null,
    provider: null,
    providerMessageId: null,
    scheduledMessageId: null,
    contactId: null,
    sentBy: null,
    createdAt: at.toISOString(),
    updatedAt: at.toISOString(),
    ...m,
  };
}

const messageSk = (m: Pick<Communication, 'createdAt' | 'id'>) => `MSG#${m.createdAt}#${m.id}`;
const refKey = (orgId: string, messageId: string) => ({ PK: messageRefPk(orgId, messageId), SK: 'MSG' });
const providerRefKey = (provider: string, providerMessageId: string) => ({ PK: `PROVIDERMSG#${provider}#${providerMessageId}`, SK: 'REF' });
/** GSI1 partition of an SMS conversation's messages. */
export const threadMessagesGsi1 = gsi1.threadMessages;

/** The message item. */
export function communicationItem(orgId: string, m: Communication) {
  return {
    PK: commsPk(orgId, m.transactionId),
    SK: messageSk(m),
    entity: 'Communication',
    orgId,
    ...m,
    ...(m.threadId ? { GSI1PK: threadMessagesGsi1(orgId, m.threadId), GSI1SK: `${m.createdAt}#${m.id}` } : {}),
    ...(m.contactId ? { GSI2PK: contactCommsGsi2(orgId, m.contactId), GSI2SK: `${m.createdAt}#${m.id}` } : {}),
  };
}

/** GSI2 partition of a contact's messages. */
export const contactCommsGsi2 = gsi2.contactComms;

/** A contact's most recent messages, newest first (GSI2). */
export async function listContactCommunications(orgId: string, contactId: string, limit: number): Promise<Communication[]> {
  if (limit <= 0) return [];
  const out = await db().send(
    new QueryCommand({ TableName: tableName(), IndexName: 'GSI2', KeyConditionExpression: 'GSI2PK = :pk', ExpressionAttributeValues: { ':pk': contactCommsGsi2(orgId, contactId) }, ScanIndexForward: false, Limit: limit }),
  );
  return (out.Items ?? []).map(toCommunication);
}

/** The writes that record a new message: the message and its reference (and its provider reference). */
export function communicationPuts(orgId: string, m: Communication): TransactItem[] {
  const items: TransactItem[] = [
    { Put: { TableName: tableName(), Item: communicationItem(orgId, m), ConditionExpression: 'attribute_not_exists(SK)' } },
    { Put: { TableName: tableName(), Item: { ...refKey(orgId, m.id), entity: 'CommunicationRef', orgId, transactionId: m.transactionId, sk: messageSk(m) }, ConditionExpression: 'attribute_not_exists(PK)' } },
  ];
  if (m.provider && m.providerMessageId) {
    items.push({ Put: { TableName: tableName(), Item: { ...providerRefKey(m.provider, m.providerMessageId), entity: 'ProviderMessageRef', orgId, transactionId: m.transactionId, messageId: m.id } } });
  }
  return items;
}

/**
 * The writes that record the provider's acceptance of a `queued` message: status `sent` (or `failed` with a
 * detail when `sent` is null) and, when accepted, the provider reference.
 */
export function communicationOutcome(
  orgId: string,
  m: Pick<Communication, 'id' | 'transactionId' | 'createdAt'>,
  sent: { provider: string; providerMessageId: string; from?: string | null } | null,
  detail: string | null,
  now: Date,
): TransactItem[] {
  const status: MessageStatus = sent ? 'sent' : 'failed';
  const values: Record<string, unknown> = { ':s': status, ':d': detail, ':p': sent?.provider ?? null, ':pid': sent?.providerMessageId ?? null, ':now': now.toISOString(), ':queued': 'queued' };
  let set = '#s = :s, statusDetail = :d, provider = :p, providerMessageId = :pid, updatedAt = :now';
  // A text's sending number is known only once the provider took it.
  if (sent?.from) (set += ', #from.address = :fa'), (values[':fa'] = sent.from);
  const items: TransactItem[] = [
    {
      Update: {
        TableName: tableName(),
        Key: { PK: commsPk(orgId, m.transactionId), SK: messageSk(m) },
        UpdateExpression: `SET ${set}`,
        ConditionExpression: '#s = :queued',
        ExpressionAttributeNames: { '#s': 'status', ...(sent?.from ? { '#from': 'from' } : {}) },
        ExpressionAttributeValues: values,
      },
    },
  ];
  if (sent) items.push({ Put: { TableName: tableName(), Item: { ...providerRefKey(sent.provider, sent.providerMessageId), entity: 'ProviderMessageRef', orgId, transactionId: m.transactionId, messageId: m.id } } });
  return items;
}

/** A message from its item. */
export function toCommunication(item: Record<string, any>): Communication {
  const keys: (keyof Communication)[] = [
    'id', 'transactionId', 'channel', 'direction', 'kind', 'status', 'statusDetail', 'threadId', 'from', 'to', 'cc', 'bcc', 'subject', 'bodyText', 'bodyHtml',
    'emailMessageId', 'inReplyTo', 'documents', 'recipientRole', 'context', 'provider', 'providerMessageId', 'scheduledMessageId', 'contactId', 'sentBy', 'createdAt', 'updatedAt',
  ];
  const m = Object.fromEntries(keys.map((k) => [k, item[k] ?? null])) as unknown as Communication;
  m.to ??= [];
  m.cc ??= [];
  m.bcc ??= [];
  m.documents ??= [];
  return m;
}

/**
 * The API's view of a message: everything but the provider's bookkeeping (`provider`, `providerMessageId`).
 * `bodyText` is the plain text (an HTML-only email's text is derived from its HTML).
 */
export function messageView(m: Communication) {
  const { provider: _p, providerMessageId: _id, ...view } = m;
  return view;
}

/**
 * A deal's messages in time order (oldest first), optionally between two instants.
 * @param range ISO bounds, inclusive; `limit` keeps the newest that many
 */
export async function listCommunications(orgId: string, transactionId: string, range: { from?: string; to?: string; limit?: number } = {}): Promise<Communication[]> {
  const from = `MSG#${range.from ?? ''}`;
  const to = `MSG#${range.to ?? '9999'}~`;
  const found: Record<string, any>[] = [];
  let ExclusiveStartKey: Record<string, any> | undefined;
  do {
    const out = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': commsPk(orgId, transactionId), ':from': from, ':to': to },
        ScanIndexForward: range.limit === undefined,
        Limit: range.limit,
        ExclusiveStartKey,
      }),
    );
    found.push(...(out.Items ?? []));
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey && (range.limit === undefined || found.length < range.limit));
  const messages = found.map(toCommunication);
  return range.limit === undefined ? messages : messages.slice(0, range.limit).reverse();
}

/** An SMS conversation's messages, oldest first (GSI1; the newest `limit`). */
export async function listThreadMessages(orgId: string, threadId: string, limit: number): Promise<Communication[]> {
  const out = await db().send(
    new QueryCommand({ TableName: tableName(), IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :pk', ExpressionAttributeValues: { ':pk': threadMessagesGsi1(orgId, threadId) }, ScanIndexForward: false, Limit: limit }),
  );
  return (out.Items ?? []).map(toCommunication).reverse();
}

/** The message with this id. @throws NotFound when absent or another organization's */
export async function getCommunication(orgId: string, messageId: string): Promise<Communication> {
  const ref = await db().send(new GetCommand({ TableName: tableName(), Key: refKey(orgId, messageId) }));
  if (!ref.Item) throw new NotFound('Message');
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: commsPk(orgId, ref.Item.transactionId), SK: ref.Item.sk } }));
  if (!out.Item) throw new NotFound('Message');
  return toCommunication(out.Item);
}

/** Which message a provider's id names (its organization, deal and message id), or undefined. */
export async function findByProviderId(provider: string, providerMessageId: string): Promise<{ orgId: string; transactionId: string; messageId: string } | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: providerRefKey(provider, providerMessageId) }));
  return out.Item ? { orgId: out.Item.orgId, transactionId: out.Item.transactionId, messageId: out.Item.messageId } : undefined;
}

/**
 * Moves a message to a provider-reported status (`delivered`, `bounced`, `complained`, `failed`). A later report
 * never undoes a worse one: `bounced`/`complained` are final.
 * @returns false when the message is gone or already final
 */
export async function updateCommunicationStatus(orgId: string, messageId: string, status: MessageStatus, detail: string | null, now: Date): Promise<boolean> {
  const ref = await db().send(new GetCommand({ TableName: tableName(), Key: refKey(orgId, messageId) }));
  if (!ref.Item) return false;
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { PK: commsPk(orgId, ref.Item.transactionId), SK: ref.Item.sk },
        UpdateExpression: 'SET #s = :s, statusDetail = :d, updatedAt = :now',
        ConditionExpression: 'attribute_exists(SK) AND NOT #s IN (:bounced, :complained)',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':s': status, ':d': detail, ':now': now.toISOString(), ':bounced': 'bounced', ':complained': 'complained' },
      }),
    );
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}
