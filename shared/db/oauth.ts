/**
 * Items of the OAuth 2.1 authorization server (spec "OAuth 2.1 flow"). Secrets (login sessions, codes, refresh
 * tokens) are stored only as their SHA-256; expiring items carry `ttl` (epoch seconds) so DynamoDB removes them.
 *
 * - Client (RFC 7591 registration): `PK = OAUTHCLIENT#<clientId>`, `SK = CLIENT`.
 * - Login session (the sign-in and consent pages): `PK = OAUTHLOGIN#<sha256(session)>`, `SK = LOGIN`, 15 minutes.
 * - Authorization code: `PK = OAUTHCODE#<sha256(code)>`, `SK = CODE`; 60 s, single use (`usedAt`).
 * - Grant (one authorization of one user, organization and client): `PK = OAUTHGRANT#<grantId>`, `SK = GRANT`; GSI4 (keys only)
 *   `OAUTHGRANTS#<userId>#<clientId>` lists a user's grants to a client. It carries the key fields and rate-limit
 *   counters of an API key (shared/db/api-keys.ts), so an access token is authenticated and counted with one
 *   conditional `UpdateItem` on it, and revoking it (`revokedAt`) ends every token it issued at once.
 * - Refresh token: `PK = OAUTHREFRESH#<sha256(token)>`, `SK = REFRESH`; 90 days, rotated on use (`usedAt`).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { db, tableName } from '#db/client';
import { gsi1, gsi4, oauthPk } from '#db/keys';
import { transactWrite, WriteConflict } from '#db/transact';
import type { Scope } from '#api/types';

/** SHA-256 hex of a secret (session id, code, refresh token). */
export const hashSecret = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');

/** A fresh secret: 32 random bytes, base64url (256 bits). */
export const newSecret = (): string => randomBytes(32).toString('base64url');

const epochSeconds = (ms: number) => Math.floor(ms / 1000);

// ---- clients -------------------------------------------------------------------------------------------------------

/** A registered public client (RFC 7591; no secret, `token_endpoint_auth_method = none`). */
export interface OAuthClient {
  clientId: string;
  clientName: string;
  redirectUris: string[];
  createdAt: string;
}

/** Stores a new client. @returns it, with a fresh `clientId` */
export async function registerClient(input: { clientName: string; redirectUris: string[] }, now: Date): Promise<OAuthClient> {
  const client: OAuthClient = { clientId: randomUUID(), clientName: input.clientName, redirectUris: input.redirectUris, createdAt: now.toISOString() };
  await db().send(new PutCommand({ TableName: tableName(), Item: { PK: oauthPk.client(client.clientId), SK: 'CLIENT', entity: 'OAuthClient', ...client }, ConditionExpression: 'attribute_not_exists(PK)' }));
  return client;
}

/** The client, or undefined (also for a malformed id). */
export async function getClient(clientId: string): Promise<OAuthClient | undefined> {
  if (!clientId || clientId.length > 100) return undefined;
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: oauthPk.client(clientId), SK: 'CLIENT' } }));
  if (!out.Item) return undefined;
  const { clientName, redirectUris, createdAt } = out.Item;
  return { clientId, clientName, redirectUris, createdAt };
}

// ---- login sessions ------------------------------------------------------------------------------------------------

/** The validated authorization request a login session carries through the sign-in and consent pages. */
export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  scopes: Scope[];
  state: string | null;
  codeChallenge: string;
  /** RFC 8707 resource indicator (becomes the token's `aud`). */
  resource: string;
  /** The organization id the client named with `organization`: its branding on the sign-in pages only. */
  organization?: string;
}

/** A sign-in in progress. */
export interface LoginSession {
  request: AuthorizationRequest;
  /** The email being proven; set by the email step. */
  email?: string;
  /** SHA-256 of the one-time code mailed to `email`. */
  otpHash?: string;
  /** Wrong codes entered so far. */
  otpAttempts: number;
  /** Set once the code is proven. */
  verifiedAt?: string;
  /** Epoch ms after which the session is refused. */
  expiresAt: number;
}

/** Login sessions last 15 minutes (ms). */
export const LOGIN_SESSION_MS = 15 * 60_000;

/** Starts a login session. @returns its secret id (put in the pages' forms) */
export async function createLoginSession(request: AuthorizationRequest, now: number): Promise<string> {
  const id = newSecret();
  const session: LoginSession = { request, otpAttempts: 0, expiresAt: now + LOGIN_SESSION_MS };
  await db().send(
    new PutCommand({ TableName: tableName(), Item: { PK: oauthPk.login(hashSecret(id)), SK: 'LOGIN', entity: 'OAuthLogin', ...session, ttl: epochSeconds(session.expiresAt) + 3600 }, ConditionExpression: 'attribute_not_exists(PK)' }),
  );
  return id;
}

/** The live session, or undefined (unknown, expired, or finished). */
export async function getLoginSession(id: string, now: number): Promise<LoginSession | undefined> {
  if (!id || id.length > 100) return undefined;
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: oauthPk.login(hashSecret(id)), SK: 'LOGIN' }, ConsistentRead: true }));
  const item = out.Item as (LoginSession & { finishedAt?: string }) | undefined;
  if (!item || item.finishedAt || item.expiresAt <= now) return undefined;
  return item;
}

/** Records the email and the hash of the one-time code mailed to it (a new code replaces the old; attempts reset). */
export async function setLoginOtp(id: string, email: string, otpHash: string): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { PK: oauthPk.login(hashSecret(id)), SK: 'LOGIN' },
      UpdateExpression: 'SET email = :e, otpHash = :h, otpAttempts = :zero REMOVE verifiedAt',
      ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(finishedAt)',
      ExpressionAttributeValues: { ':e': email, ':h': otpHash, ':zero': 0 },
    }),
  );
}

/** Counts one wrong code. @returns the attempts so far */
export async function countOtpAttempt(id: string): Promise<number> {
  const out = await db().send(
    new UpdateCommand({ TableName: tableName(), Key: { PK: oauthPk.login(hashSecret(id)), SK: 'LOGIN' }, UpdateExpression: 'ADD otpAttempts :one', ConditionExpression: 'attribute_exists(PK)', ExpressionAttributeValues: { ':one': 1 }, ReturnValues: 'UPDATED_NEW' }),
  );
  return Number(out.Attributes?.otpAttempts ?? 0);
}

/** Marks the email proven (only with the code it was sent, so a replaced code cannot be verified late). */
export async function verifyLogin(id: string, otpHash: string, now: Date): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { PK: oauthPk.login(hashSecret(id)), SK: 'LOGIN' },
        UpdateExpression: 'SET verifiedAt = :now REMOVE otpHash',
        ConditionExpression: 'otpHash = :h AND attribute_not_exists(finishedAt)',
        ExpressionAttributeValues: { ':now': now.toISOString(), ':h': otpHash },
      }),
    );
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}

/** Ends the session (consent given or refused). @returns false when it had already ended (a double submit) */
export async function finishLogin(id: string, now: Date): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({ TableName: tableName(), Key: { PK: oauthPk.login(hashSecret(id)), SK: 'LOGIN' }, UpdateExpression: 'SET finishedAt = :now', ConditionExpression: 'attribute_exists(verifiedAt) AND attribute_not_exists(finishedAt)', ExpressionAttributeValues: { ':now': now.toISOString() } }),
    );
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}

// ---- authorization codes -------------------------------------------------------------------------------------------

/** What a code was issued for. `grantId` is chosen when the code is issued, so a replay can revoke what it issued. */
export interface CodeRecord {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  scopes: Scope[];
  resource: string;
  orgId: string;
  userId: string;
  grantId: string;
  /** Epoch ms. */
  expiresAt: number;
  usedAt?: string;
}

/** Stores a new code. @returns its value */
export async function createCode(record: Omit<CodeRecord, 'usedAt'>): Promise<string> {
  const code = newSecret();
  await db().send(new PutCommand({ TableName: tableName(), Item: { PK: oauthPk.code(hashSecret(code)), SK: 'CODE', entity: 'OAuthCode', ...record, ttl: epochSeconds(record.expiresAt) + 3600 }, ConditionExpression: 'attribute_not_exists(PK)' }));
  return code;
}

/**
 * Marks a code used, atomically: of parallel redemptions exactly one gets `{ fresh: true }`.
 * @returns the record with `fresh` (first use) or undefined for an unknown code
 */
export async function consumeCode(code: string, now: Date): Promise<(CodeRecord & { fresh: boolean }) | undefined> {
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { PK: oauthPk.code(hashSecret(code)), SK: 'CODE' },
        UpdateExpression: 'SET usedAt = :now',
        ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(usedAt)',
        ExpressionAttributeValues: { ':now': now.toISOString() },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { ...(out.Attributes as CodeRecord), fresh: true };
  } catch (err) {
    if (!(err instanceof ConditionalCheckFailedException)) throw err;
    return err.Item ? { ...(unmarshall(err.Item) as CodeRecord), fresh: false } : undefined;
  }
}

// ---- grants and refresh tokens -------------------------------------------------------------------------------------

/** One authorization (the family of tokens issued from one code). */
export interface Grant {
  grantId: string;
  orgId: string;
  userId: string;
  clientId: string;
  scopes: Scope[];
  resource: string;
  createdAt: string;
  revokedAt?: string;
}

/** A refresh token's record. */
export interface RefreshRecord {
  grantId: string;
  /** Epoch ms. */
  expiresAt: number;
  usedAt?: string;
}

const grantKey = (grantId: string) => ({ PK: oauthPk.grant(grantId), SK: 'GRANT' as const });
const refreshKey = (token: string) => ({ PK: oauthPk.refresh(hashSecret(token)), SK: 'REFRESH' });

/** The `{ PK, SK }` of a grant item (the credential item an access token is counted on). */
export const grantItemKey = grantKey;

/** Creates the grant and its first refresh token together. @returns false when the grant id is already taken */
export async function createGrant(grant: Grant, refresh: { token: string; expiresAt: number }): Promise<boolean> {
  try {
    await transactWrite(
      [
        {
          Put: {
            TableName: tableName(),
            Item: {
              ...grantKey(grant.grantId),
              GSI4PK: gsi4.oauthGrants(grant.userId, grant.clientId),
              GSI4SK: grant.grantId,
              entity: 'OAuthGrant',
              kind: 'org',
              keyId: grant.grantId,
              name: `OAuth grant to ${grant.clientId}`,
              displayPrefix: '',
              ...grant,
            },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        { Put: { TableName: tableName(), Item: { ...refreshKey(refresh.token), entity: 'OAuthRefresh', grantId: grant.grantId, expiresAt: refresh.expiresAt, ttl: epochSeconds(refresh.expiresAt) + 86_400 } } },
      ],
      () => new GrantTaken(),
    );
    return true;
  } catch (err) {
    if (err instanceof GrantTaken) return false;
    throw err;
  }
}

class GrantTaken extends Error {}

/** The grant, or undefined. */
export async function getGrant(grantId: string): Promise<Grant | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: grantKey(grantId), ConsistentRead: true }));
  if (!out.Item) return undefined;
  const { orgId, userId, clientId, scopes, resource, createdAt, revokedAt } = out.Item;
  return { grantId, orgId, userId, clientId, scopes, resource, createdAt, ...(revokedAt ? { revokedAt } : {}) };
}

/**
 * Revokes a grant: its access and refresh tokens are refused from now on. Idempotent. A grant not written yet (a code
 * replayed while its first redemption is still in flight) is left alone, so of two parallel redemptions exactly one
 * succeeds rather than none.
 */
export async function revokeGrant(grantId: string, now: Date): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({ TableName: tableName(), Key: grantKey(grantId), UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :now)', ConditionExpression: 'attribute_exists(PK)', ExpressionAttributeValues: { ':now': now.toISOString() } }),
    );
  } catch (err) {
    if (!(err instanceof ConditionalCheckFailedException)) throw err;
  }
}

/**
 * Ids of every grant of `userId` to `clientId`, revoked ones included: from GSI4 (keys only, the id is its sort
 * key) and from GSI1 for grants the backfill has not moved yet (docs/indexes.md).
 */
export async function grantIdsOf(userId: string, clientId: string): Promise<string[]> {
  const [moved, legacy] = await Promise.all([
    db().send(new QueryCommand({ TableName: tableName(), IndexName: 'GSI4', KeyConditionExpression: 'GSI4PK = :pk', ExpressionAttributeValues: { ':pk': gsi4.oauthGrants(userId, clientId) } })),
    db().send(new QueryCommand({ TableName: tableName(), IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :pk', ExpressionAttributeValues: { ':pk': gsi1.oauthGrants(userId, clientId) }, ProjectionExpression: 'grantId' })),
  ]);
  return [...new Set([...(moved.Items ?? []).map((i) => String(i.GSI4SK)), ...(legacy.Items ?? []).map((i) => String(i.grantId))])];
}

/** The refresh token's record, or undefined. */
export async function getRefresh(token: string): Promise<RefreshRecord | undefined> {
  if (!token || token.length > 200) return undefined;
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: refreshKey(token), ConsistentRead: true }));
  return out.Item as RefreshRecord | undefined;
}

/** Why a rotation did not happen. */
export type RotationRefused = 'reused' | 'revoked';

/**
 * Rotates a refresh token in one transaction: marks `token` used (only if unused), checks its grant is live, and
 * stores `next`. Of parallel rotations of one token exactly one commits.
 * @returns true, or why not: `reused` (the token was already used) or `revoked` (the grant is revoked)
 */
export async function rotateRefresh(token: string, grantId: string, next: { token: string; expiresAt: number }, now: Date): Promise<true | RotationRefused> {
  let refused: RotationRefused | undefined;
  try {
    await transactWrite(
      [
        { Update: { TableName: tableName(), Key: refreshKey(token), UpdateExpression: 'SET usedAt = :now', ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(usedAt)', ExpressionAttributeValues: { ':now': now.toISOString() } } },
        { ConditionCheck: { TableName: tableName(), Key: grantKey(grantId), ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(revokedAt)' } },
        { Put: { TableName: tableName(), Item: { ...refreshKey(next.token), entity: 'OAuthRefresh', grantId, expiresAt: next.expiresAt, ttl: epochSeconds(next.expiresAt) + 86_400 }, ConditionExpression: 'attribute_not_exists(PK)' } },
      ],
      (index) => ((refused = index === 0 ? 'reused' : 'revoked'), new Error(refused)),
    );
    return true;
  } catch (err) {
    if (refused) return refused;
    // Two rotations of one token in flight together: DynamoDB cancels one as a conflict; it is a reuse as well.
    if (err instanceof WriteConflict) return 'reused';
    throw err;
  }
}
