/**
 * API key items (organization `mcp_at_` and partner `rsk_` keys) and the request-path check that
 * authenticates a key and counts it against its fixed-window rate limit in ONE DynamoDB round trip.
 *
 * Item: `PK = APIKEY#<sha256(key)>`, `SK = APIKEY`; GSI4 (keys only) `ORG#<orgId>#APIKEYS` / `<keyId>` lists an
 * organization's keys, so the counter update of each request writes no index entry. Keys written before GSI4
 * carry the same entry in GSI1 until `npm run admin -- table backfill-indexes` moves it (docs/indexes.md). Only the SHA-256 hash of a key is stored; its value cannot be recovered.
 *
 * Rate-limit counters live on the key item: `rlWin` (minute number since the epoch), `rlR`/`rlW`
 * (reads/writes in that window), `rlErr` and `op_<operationId>` (this window's usage, folded into the
 * daily usage item when the window rolls over).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { db, tableName } from '#db/client';
import { apiKeyPk, gsi1, gsi4 } from '#db/keys';
import { usageDayUpdate } from '#db/usage';
import { batchGetInOrder } from '#db/batch';
import type { Scope } from '#api/types';

export const ORG_KEY_PREFIX = 'mcp_at_';
export const PARTNER_KEY_PREFIX = 'rsk_';

/** Spec "Limits": per key per minute, fixed window. */
export const RATE_LIMITS = { read: 300, write: 60 } as const;
export type Bucket = keyof typeof RATE_LIMITS;

export interface ApiKeyItem {
  PK: string;
  /** `APIKEY` for a key; `GRANT` for an OAuth grant, which carries the same counters (shared/db/oauth.ts). */
  SK: 'APIKEY' | 'GRANT';
  entity: 'ApiKey' | 'OAuthGrant';
  kind: 'org' | 'partner';
  keyId: string;
  orgId: string;
  userId: string;
  name: string;
  scopes: Scope[];
  /** First characters of the key, safe to show (e.g. `mcp_at_Ab3d`). */
  displayPrefix: string;
  createdAt: string;
  revokedAt?: string;
  /** Set while the workspace is scheduled for deletion: the purge's due time (ISO). Writes are refused. */
  frozenUntil?: string;
  rlWin?: number;
  rlR?: number;
  rlW?: number;
  rlErr?: number;
  /** An OAuth grant's client. */
  clientId?: string;
  [counter: `op_${string}`]: number;
}

/** The authenticated caller as the handlers see it. */
export interface Principal {
  kind: 'org' | 'partner';
  /** `key` for an `mcp_at_`/`rsk_` key; `oauth` for an OAuth access token (then `keyId` is its grant's id). */
  credential: 'key' | 'oauth';
  /** For a partner key, the partner's id (`orgId` holds the same value); for an organization credential, the organization. */
  orgId: string;
  keyId: string;
  userId: string;
  scopes: Scope[];
  /** Partition key of the key item (its hash; never the key's value) or of the OAuth grant item. */
  keyPk: string;
  /** Sort key of that item (`APIKEY` or `GRANT`). */
  keySk: 'APIKEY' | 'GRANT';
  /** The OAuth client of a token credential. */
  clientId?: string;
  /**
   * The purge's due time (ISO) while the workspace is scheduled for deletion (frozen), else undefined. Read from
   * the key item the authentication `UpdateItem` returns anyway, so the freeze check costs no extra call.
   */
  frozenUntil?: string;
  /** This window's usage counters as of this request (for `GET /usage`). */
  window: { minute: number; reads: number; writes: number; errors: number; ops: Record<string, number> };
}

export class KeyRejected extends Error {}
export class KeyRateLimited extends Error {
  /** @param orgId the key's organization (the 429 is logged under it) */
  constructor(
    readonly bucket: Bucket,
    readonly orgId: string,
  ) {
    super(`rate limited (${bucket})`);
  }
}

/** SHA-256 hex of a key's full value. */
export const hashKey = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

/** A fresh key value: prefix + 32 random bytes, base64url. */
export function newKeyValue(kind: 'org' | 'partner'): string {
  return (kind === 'org' ? ORG_KEY_PREFIX : PARTNER_KEY_PREFIX) + randomBytes(32).toString('base64url');
}

/**
 * Stores a new key (conditional create) and returns its one-time value.
 * @returns `{ keyId, value }`; `value` is shown once and never stored.
 */
export async function createApiKey(input: {
  orgId: string;
  userId: string;
  name: string;
  scopes: Scope[];
  kind?: 'org' | 'partner';
}): Promise<{ keyId: string; value: string }> {
  const kind = input.kind ?? 'org';
  const value = newKeyValue(kind);
  const keyId = randomUUID();
  await db().send(new PutCommand({ TableName: tableName(), Item: apiKeyItem({ ...input, kind, keyId, value }), ConditionExpression: 'attribute_not_exists(PK)' }));
  return { keyId, value };
}

/** The item for a key value (used by `createApiKey` and by organization creation's transaction). */
export function apiKeyItem(input: {
  orgId: string;
  userId: string;
  name: string;
  scopes: Scope[];
  kind: 'org' | 'partner';
  keyId: string;
  value: string;
}): ApiKeyItem & { GSI4PK: string; GSI4SK: string } {
  return {
    PK: apiKeyPk(hashKey(input.value)),
    SK: 'APIKEY',
    GSI4PK: gsi4.apiKeys(input.orgId),
    GSI4SK: input.keyId,
    entity: 'ApiKey',
    kind: input.kind,
    keyId: input.keyId,
    orgId: input.orgId,
    userId: input.userId,
    name: input.name,
    scopes: input.scopes,
    displayPrefix: input.value.slice(0, input.kind === 'org' ? 11 : 8),
    createdAt: new Date().toISOString(),
  };
}

/**
 * An organization's keys (never their values), by key id: the keys found on GSI4 (keys only), read with one
 * `BatchGetItem`, and any key not yet moved off GSI1 by the backfill (docs/indexes.md). An organization holds a
 * handful of keys, far under a batch's 100.
 */
export async function listApiKeys(orgId: string): Promise<ApiKeyItem[]> {
  const [moved, legacy] = await Promise.all([
    db().send(new QueryCommand({ TableName: tableName(), IndexName: 'GSI4', KeyConditionExpression: 'GSI4PK = :pk', ExpressionAttributeValues: { ':pk': gsi4.apiKeys(orgId) } })),
    db().send(new QueryCommand({ TableName: tableName(), IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :pk', ExpressionAttributeValues: { ':pk': gsi1.apiKeys(orgId) } })),
  ]);
  const items = [...((legacy.Items ?? []) as ApiKeyItem[]), ...((await batchGetInOrder((moved.Items ?? []).map((i) => ({ PK: String(i.PK), SK: String(i.SK) })))) as ApiKeyItem[])];
  const byId = new Map(items.map((k) => [k.keyId, k]));
  return [...byId.values()].sort((a, b) => a.keyId.localeCompare(b.keyId));
}

/**
 * Revokes a key by id: later requests with it get 401.
 * @returns false when the organization has no such key.
 */
export async function revokeApiKey(orgId: string, keyId: string): Promise<boolean> {
  const key = (await listApiKeys(orgId)).find((k) => k.keyId === keyId);
  if (!key) return false;
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { PK: key.PK, SK: 'APIKEY' },
      UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :now)',
      ExpressionAttributeValues: { ':now': new Date().toISOString() },
      ConditionExpression: 'attribute_exists(PK)',
    }),
  );
  return true;
}

/**
 * Transaction items that set (`frozenUntil` an ISO time) or clear (null) the freeze flag on each of the
 * organization's keys, each conditional on the key still existing. An organization has a handful of keys, far
 * under the 100 items of a transaction.
 */
export async function keyFreezeUpdates(orgId: string, frozenUntil: string | null) {
  return (await listApiKeys(orgId)).map((k) => ({
    Update: {
      TableName: tableName(),
      Key: { PK: k.PK, SK: 'APIKEY' },
      UpdateExpression: frozenUntil ? 'SET frozenUntil = :until' : 'REMOVE frozenUntil',
      ConditionExpression: 'attribute_exists(PK)',
      ...(frozenUntil ? { ExpressionAttributeValues: { ':until': frozenUntil } } : {}),
    },
  }));
}

const counterOf = (bucket: Bucket) => (bucket === 'read' ? 'rlR' : 'rlW');

/**
 * Authenticates `value` and counts one request in `bucket`, in one conditional `UpdateItem` that returns
 * the key item. Only the first request of a new minute window costs a second call (a `TransactWriteItems`
 * that resets the window and folds the finished window into the daily usage item).
 * @param now epoch milliseconds
 * @throws KeyRejected unknown or revoked key; KeyRateLimited when the bucket is exhausted
 */
export async function authenticateAndCount(value: string, bucket: Bucket, operationId: string, now = Date.now()): Promise<Principal> {
  return countOnCredential({ PK: apiKeyPk(hashKey(value)), SK: 'APIKEY' }, bucket, operationId, now);
}

/**
 * As {@link authenticateAndCount}, on any credential item carrying the key fields and counters (an API key, or the
 * OAuth grant an access token belongs to: a revoked grant is refused by the same condition, so the token dies with it).
 * @param key the item's `{ PK, SK }`
 * @throws KeyRejected absent or revoked; KeyRateLimited when the bucket is exhausted
 */
export async function countOnCredential(key: { PK: string; SK: 'APIKEY' | 'GRANT' }, bucket: Bucket, operationId: string, now = Date.now()): Promise<Principal> {
  const minute = Math.floor(now / 60_000);
  for (let attempt = 0; attempt < 3; attempt++) {
    let old: ApiKeyItem | undefined;
    try {
      const out = await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: key,
          UpdateExpression: 'ADD #cnt :one, #op :one',
          ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(revokedAt) AND rlWin = :win AND #cnt < :max',
          ExpressionAttributeNames: { '#cnt': counterOf(bucket), '#op': `op_${operationId}` },
          ExpressionAttributeValues: { ':one': 1, ':win': minute, ':max': RATE_LIMITS[bucket] },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return toPrincipal(out.Attributes as ApiKeyItem);
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
      old = err.Item ? (unmarshall(err.Item) as ApiKeyItem) : undefined;
    }
    if (!old || old.revokedAt) throw new KeyRejected();
    if (old.rlWin === minute) throw new KeyRateLimited(bucket, old.orgId);
    const rolled = await rollWindow(old, minute, bucket, operationId);
    if (rolled) return toPrincipal(rolled);
    // Another request rolled the window first: count on the fast path again.
  }
  throw new Error('rate-limit window contention');
}

/** Starts window `minute` with this request counted; folds the old window into usage. Null on a lost race. */
async function rollWindow(old: ApiKeyItem, minute: number, bucket: Bucket, operationId: string): Promise<ApiKeyItem | null> {
  const oldOps = Object.keys(old).filter((k) => k.startsWith('op_'));
  const names: Record<string, string> = { '#op': `op_${operationId}` };
  const removals = oldOps
    .filter((k) => k !== names['#op'])
    .map((k, i) => ((names[`#o${i}`] = k), `#o${i}`));
  const next: ApiKeyItem = { ...old, rlWin: minute, rlR: bucket === 'read' ? 1 : 0, rlW: bucket === 'write' ? 1 : 0, rlErr: 0 };
  oldOps.forEach((k) => delete next[k as `op_${string}`]);
  next[`op_${operationId}`] = 1;
  const items: NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']> = [
    {
      Update: {
        TableName: tableName(),
        Key: { PK: old.PK, SK: old.SK },
        UpdateExpression: `SET rlWin = :win, rlR = :r, rlW = :w, rlErr = :zero, #op = :one${removals.length ? ` REMOVE ${removals.join(', ')}` : ''}`,
        ConditionExpression: 'attribute_not_exists(revokedAt) AND (attribute_not_exists(rlWin) OR rlWin = :oldWin)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ':win': minute, ':r': next.rlR, ':w': next.rlW, ':zero': 0, ':one': 1, ':oldWin': old.rlWin ?? -1 },
      },
    },
  ];
  const finished = usageDayUpdate(old);
  if (finished) items.push({ Update: finished });
  try {
    await db().send(new TransactWriteCommand({ TransactItems: items }));
    return next;
  } catch (err) {
    if (err instanceof TransactionCanceledException) return null;
    throw err;
  }
}

/**
 * Counts one failed (4xx/5xx) response in the current window. An extra call, paid only on errors.
 * Best effort: a failure here never changes the response.
 */
export async function countError(principal: Principal): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { PK: principal.keyPk, SK: principal.keySk },
        UpdateExpression: 'ADD rlErr :one',
        ConditionExpression: 'rlWin = :win',
        ExpressionAttributeValues: { ':one': 1, ':win': principal.window.minute },
      }),
    );
  } catch {
    /* a rolled window or a throttle must not turn a 4xx into a 500 */
  }
}

function toPrincipal(item: ApiKeyItem): Principal {
  const ops: Record<string, number> = {};
  for (const [k, v] of Object.entries(item)) if (k.startsWith('op_')) ops[k.slice(3)] = Number(v);
  const p: Principal = {
    kind: item.kind,
    credential: item.SK === 'GRANT' ? 'oauth' : 'key',
    orgId: item.orgId,
    keyId: item.keyId,
    userId: item.userId,
    scopes: item.scopes,
    keyPk: item.PK,
    keySk: item.SK,
    ...(item.SK === 'GRANT' && item.clientId ? { clientId: item.clientId as string } : {}),
    ...(item.frozenUntil ? { frozenUntil: item.frozenUntil } : {}),
    window: { minute: item.rlWin ?? 0, reads: item.rlR ?? 0, writes: item.rlW ?? 0, errors: item.rlErr ?? 0, ops },
  };
  return p;
}
