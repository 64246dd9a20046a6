/**
 * SMS conversations: one per (deal, phone number). A conversation is `PK = ORG#<orgId>#THREAD#<threadId>`,
 * `SK = THREAD`, listed newest activity first by GSI1 `ORG#<orgId>#THREADS` / `<lastMessageAt>#<threadId>`; the deal's
 * communications partition holds a pointer `SK = THREAD#<e164>` so the same number on the same deal reuses it.
 * Its messages are communications (communications.ts) indexed by thread.
 *
 * Inbound routing: a text arrives naming only the sender's number, so `PK = SMSROUTE#<e164>`, `SK = ROUTE` points at
 * the conversation that last texted that number (updated on every outbound text; carries `orgId`).
 */
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';
import { commsPk, gsi1, threadPk } from '#db/keys';
import type { TransactItem } from '#db/transact';
import { NotFound } from '#domain/errors';

/** An SMS conversation with one phone number on one deal. */
export interface Conversation {
  id: string;
  transactionId: string;
  /** E.164, e.g. `+15125550143`. */
  phone: string;
  contactId: string | null;
  /** Display name of the other party (the contact's, when linked). */
  name: string | null;
  lastMessageAt: string;
  lastMessagePreview: string;
  messageCount: number;
  createdAt: string;
}

const threadKey = (orgId: string, threadId: string) => ({ PK: threadPk(orgId, threadId), SK: 'THREAD' });
const threadsGsi1 = gsi1.threads;
const pointerKey = (orgId: string, transactionId: string, phone: string) => ({ PK: commsPk(orgId, transactionId), SK: `THREAD#${phone}` });
const routeKey = (phone: string) => ({ PK: `SMSROUTE#${phone}`, SK: 'ROUTE' });

/** The first 160 characters of a text, on one line (the list's preview). */
export const preview = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 160);

function toConversation(item: Record<string, any>): Conversation {
  const { id, transactionId, phone, contactId, name, lastMessageAt, lastMessagePreview, messageCount, createdAt } = item;
  return { id, transactionId, phone, contactId: contactId ?? null, name: name ?? null, lastMessageAt, lastMessagePreview, messageCount: Number(messageCount ?? 0), createdAt };
}

/** The conversation. @throws NotFound when absent or another organization's */
export async function getConversation(orgId: string, threadId: string): Promise<Conversation> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: threadKey(orgId, threadId) }));
  if (!out.Item) throw new NotFound('Conversation');
  return toConversation(out.Item);
}

/** The deal's conversation with `phone`, or undefined. */
export async function findConversation(orgId: string, transactionId: string, phone: string): Promise<Conversation | undefined> {
  const ptr = await db().send(new GetCommand({ TableName: tableName(), Key: pointerKey(orgId, transactionId, phone) }));
  if (!ptr.Item) return undefined;
  return getConversation(orgId, ptr.Item.threadId).catch((err) => (err instanceof NotFound ? undefined : Promise.reject(err)));
}

/** The writes that create a conversation and its pointer (conditional: one per deal and number). */
export function conversationPuts(orgId: string, c: Conversation): TransactItem[] {
  return [
    { Put: { TableName: tableName(), Item: { ...threadKey(orgId, c.id), entity: 'Conversation', orgId, ...c, GSI1PK: threadsGsi1(orgId), GSI1SK: `${c.lastMessageAt}#${c.id}` }, ConditionExpression: 'attribute_not_exists(PK)' } },
    { Put: { TableName: tableName(), Item: { ...pointerKey(orgId, c.transactionId, c.phone), entity: 'ConversationPointer', orgId, threadId: c.id }, ConditionExpression: 'attribute_not_exists(SK)' } },
  ];
}

/** The `Update` that records a new message in a conversation (count, preview, list order). */
export function conversationTouch(orgId: string, threadId: string, at: string, text: string): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: threadKey(orgId, threadId),
      UpdateExpression: 'SET lastMessageAt = :at, lastMessagePreview = :p, GSI1SK = :sk ADD messageCount :one',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':at': at, ':p': preview(text), ':sk': `${at}#${threadId}`, ':one': 1 },
    },
  };
}

/** The organization's conversations, most recent activity first. */
export async function listConversations(orgId: string, limit: number): Promise<Conversation[]> {
  const out = await db().send(
    new QueryCommand({ TableName: tableName(), IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :pk', ExpressionAttributeValues: { ':pk': threadsGsi1(orgId) }, ScanIndexForward: false, Limit: limit }),
  );
  return (out.Items ?? []).map(toConversation);
}

/** Points inbound texts from `phone` at this conversation (the latest one to text the number wins). */
export async function setSmsRoute(phone: string, orgId: string, threadId: string, transactionId: string, now: Date): Promise<void> {
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...routeKey(phone), entity: 'SmsRoute', orgId, threadId, transactionId, phone, updatedAt: now.toISOString() } }));
}

/** The conversation inbound texts from `phone` belong to, or undefined (nobody here ever texted that number). */
export async function findSmsRoute(phone: string): Promise<{ orgId: string; threadId: string; transactionId: string } | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: routeKey(phone) }));
  return out.Item ? { orgId: out.Item.orgId, threadId: out.Item.threadId, transactionId: out.Item.transactionId } : undefined;
}

/** The API's view of a conversation: its `id` is the `{threadId}` of the conversation paths; `phoneNumber` is E.164. */
export function conversationView(c: Conversation) {
  const { phone, ...rest } = c;
  return { ...rest, phoneNumber: phone };
}
