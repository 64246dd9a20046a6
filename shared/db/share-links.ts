/**
 * Secure, expiring links to a document (spec "Messaging": documents shared by secure expiring link over SMS or in a
 * conversation). The link carries a random token; only its SHA-256 is stored: `PK = LINK#<sha256(token)>`,
 * `SK = LINK` (the link names only its token; the item carries `orgId`), expiring by TTL. Opening the link
 * (`GET /l/{token}`) answers with a short-lived download URL; a revoked or expired link is a plain 404.
 */
import { createHash, randomBytes } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';

/** A document share link (its token is never stored). */
export interface ShareLink {
  documentId: string;
  transactionId: string;
  orgId: string;
  expiresAt: string;
  createdBy: string | null;
  createdAt: string;
  revokedAt: string | null;
  /** Opens so far. */
  opens: number;
}

const hashOf = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');
const key = (token: string) => ({ PK: `LINK#${hashOf(token)}`, SK: 'LINK' });

/** A new token: 32 random bytes, base64url (43 characters). */
export const newLinkToken = () => randomBytes(32).toString('base64url');

/** Stores a link for `token`, kept one day past its expiry (TTL). */
export async function createShareLink(token: string, link: Omit<ShareLink, 'revokedAt' | 'opens'>): Promise<void> {
  const ttl = Math.floor(Date.parse(link.expiresAt) / 1000) + 86_400;
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...key(token), entity: 'ShareLink', ...link, revokedAt: null, opens: 0, ttl }, ConditionExpression: 'attribute_not_exists(PK)' }));
}

/**
 * The live link of `token` (counting this open), or undefined when unknown, revoked or expired.
 * @param now the request time
 */
export async function openShareLink(token: string, now: Date): Promise<ShareLink | undefined> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: key(token) }));
  const item = out.Item;
  if (!item || item.revokedAt || Date.parse(item.expiresAt) <= now.getTime()) return undefined;
  await db().send(new UpdateCommand({ TableName: tableName(), Key: key(token), UpdateExpression: 'ADD opens :one SET lastOpenedAt = :now', ExpressionAttributeValues: { ':one': 1, ':now': now.toISOString() } }));
  const { documentId, transactionId, orgId, expiresAt, createdBy, createdAt, revokedAt, opens } = item;
  return { documentId, transactionId, orgId, expiresAt, createdBy: createdBy ?? null, createdAt, revokedAt: revokedAt ?? null, opens: Number(opens ?? 0) + 1 };
}
