/**
 * Links to the pages people outside the team open without credentials: an intake form of a deal (`/f/{token}`),
 * the deal's client portal (`/p/{token}`) and a disclosure recipient's page (`/d/{token}`). The link carries a random
 * token (256 bits, base64url); only its SHA-256 is stored: `PK = PAGE#<sha256(token)>`, `SK = PAGE`, carrying
 * `orgId` and what the link opens, expiring by TTL one day after `expiresAt`. What the link opens decides the rest
 * (a revoked disclosure recipient, a deleted deal): the link only names it.
 *
 * Revoking a deal's portal or form links: since no token is stored, a revocation is a watermark in the deal's item
 * collection (`PK = ORG#<orgId>#TXN#<id>`, `SK = LINKS#portal` or `LINKS#form`, `revokedAt`); a link of that kind
 * issued at or before it no longer opens. Links issued later (the next `GET`) work.
 */
import { createHash, randomBytes } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';
import { txnPk } from '#db/keys';
import type { TransactItem } from '#db/transact';

/** What a page link opens. */
export type PageTarget =
  | { kind: 'form'; transactionId: string; formId: string }
  | { kind: 'portal'; transactionId: string }
  | { kind: 'disclosure'; packageId: string; recipientId: string };

/** A stored page link (its token never is). */
export type PageLink = PageTarget & { orgId: string; expiresAt: string; createdAt: string; createdBy: string | null };

const hashOf = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');
const key = (token: string) => ({ PK: `PAGE#${hashOf(token)}`, SK: 'PAGE' });

/** A new token: 32 random bytes, base64url (43 characters). */
export const newPageToken = () => randomBytes(32).toString('base64url');

/** Stores the link of `token` (conditional: a token is never reused). */
export async function createPageLink(token: string, link: PageLink): Promise<void> {
  await db().send(new PutCommand(pageLinkPut(token, link).Put!));
}

/** The conditional `Put` of a new link, for a transaction (a disclosure recipient with its link and share email). */
export function pageLinkPut(token: string, link: PageLink): TransactItem {
  const ttl = Math.floor(Date.parse(link.expiresAt) / 1000) + 86_400;
  return { Put: { TableName: tableName(), Item: { ...key(token), entity: 'PageLink', ...link, ttl }, ConditionExpression: 'attribute_not_exists(PK)' } };
}

/** The kinds of link a deal issues (and revokes) as a whole. */
export type DealLinkKind = 'portal' | 'form';

const revocationKey = (orgId: string, transactionId: string, kind: DealLinkKind) => ({ PK: txnPk(orgId, transactionId), SK: `LINKS#${kind}` });

/**
 * The `Put` that revokes every `kind` link of the deal issued at or before `now` (for the transaction that also
 * records the activity).
 */
export function pageLinkRevocationPut(orgId: string, transactionId: string, kind: DealLinkKind, now: Date) {
  return { Put: { TableName: tableName(), Item: { ...revocationKey(orgId, transactionId, kind), entity: 'PageLinkRevocation', orgId, transactionId, kind, revokedAt: now.toISOString() } } };
}

/** When the deal's `kind` links were last revoked (ISO time), or null. A consistent read: revocation is immediate. */
export async function pageLinksRevokedAt(orgId: string, transactionId: string, kind: DealLinkKind): Promise<string | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: revocationKey(orgId, transactionId, kind), ConsistentRead: true }));
  return (out.Item?.revokedAt as string | undefined) ?? null;
}

/**
 * The live link of `token`, or undefined when the token is malformed, unknown, expired or revoked (a portal or form
 * link issued at or before its deal's revocation).
 * @param kind the kind the route serves: a token of another kind is unknown here
 */
export async function findPageLink<K extends PageTarget['kind']>(token: string, kind: K, now: Date): Promise<Extract<PageLink, { kind: K }> | undefined> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: key(token) }));
  const item = out.Item;
  if (!item || item.kind !== kind || Date.parse(item.expiresAt) <= now.getTime()) return undefined;
  const { PK: _pk, SK: _sk, entity: _e, ttl: _ttl, ...link } = item;
  if (link.kind === 'portal' || link.kind === 'form') {
    const revokedAt = await pageLinksRevokedAt(link.orgId, link.transactionId, link.kind);
    if (revokedAt && link.createdAt <= revokedAt) return undefined;
  }
  return link as Extract<PageLink, { kind: K }>;
}
