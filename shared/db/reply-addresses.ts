/**
 * Each deal's reply address, so a reply to any email of the deal comes back into its thread: `reply+<token>@<inbound
 * mail domain>`. The deal's communications partition holds `SK = REPLYTO` → its token; the token's own item
 * `PK = REPLYTO#<token>`, `SK = ROUTE` → the organization and deal (inbound mail names only the address it was sent
 * to; the item carries `orgId`).
 */
import { randomBytes } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { db, tableName } from '#db/client';
import { commsPk } from '#db/keys';
import { transactWrite } from '#db/transact';

const pointerKey = (orgId: string, transactionId: string) => ({ PK: commsPk(orgId, transactionId), SK: 'REPLYTO' });
const routeKey = (token: string) => ({ PK: `REPLYTO#${token}`, SK: 'ROUTE' });

/** A new token: 20 lower-case base-32 characters (100 bits), safe in an email local part. */
const newToken = () => {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  return [...randomBytes(20)].map((b) => alphabet[b & 31]).join('');
};

/** The deal's reply token, created on first use (two concurrent first uses agree on one). */
export async function replyTokenOf(orgId: string, transactionId: string): Promise<string> {
  const existing = await db().send(new GetCommand({ TableName: tableName(), Key: pointerKey(orgId, transactionId), ConsistentRead: true }));
  if (existing.Item) return String(existing.Item.token);
  const token = newToken();
  try {
    await transactWrite([
      { Put: { TableName: tableName(), Item: { ...pointerKey(orgId, transactionId), entity: 'ReplyAddress', orgId, token }, ConditionExpression: 'attribute_not_exists(SK)' } },
      { Put: { TableName: tableName(), Item: { ...routeKey(token), entity: 'ReplyRoute', orgId, transactionId }, ConditionExpression: 'attribute_not_exists(PK)' } },
    ]);
    return token;
  } catch (err) {
    if (!(err instanceof TransactionCanceledException)) throw err;
    return replyTokenOf(orgId, transactionId);
  }
}

/** The deal a reply token belongs to, or undefined. */
export async function findReplyRoute(token: string): Promise<{ orgId: string; transactionId: string } | undefined> {
  if (!/^[a-z2-7]{20}$/.test(token)) return undefined;
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: routeKey(token) }));
  return out.Item ? { orgId: out.Item.orgId, transactionId: out.Item.transactionId } : undefined;
}
