/**
 * The OAuth 2.1 authorization server's rules (spec "OAuth 2.1 flow", "Limits"): code redemption with PKCE, token
 * issue, refresh-token rotation with reuse detection, revocation, and the API's check of an access token.
 *
 * - Authorization code: 60 s, single use; a replayed code revokes the grant it issued (RFC 9700 §4.2.4 / OAuth 2.1
 *   §4.1.3). Of parallel redemptions exactly one succeeds (a conditional write).
 * - Access token: a JWT (RFC 9068: `typ: at+jwt`; `iss`, `sub`, `aud`, `exp`, `iat`, `jti`, `client_id`, `scope`, plus
 *   `org_id`, `org_name`, `name` and `gid`, its grant), 1 hour, signed ES256 by the signing-key port.
 * - Refresh token: opaque, 90 days, rotated on every use. Presenting a used one is a replay: every grant of that user
 *   and client is revoked, so every live access and refresh token dies, the newest included (RFC 9700 §4.14.2).
 * - The API authenticates a token by its signature, then counts the request on its grant item (one conditional
 *   `UpdateItem`, which also refuses a revoked grant), then re-reads the membership (a removed user gets 401 at once).
 */
import { createHash, randomUUID } from 'node:crypto';
import { JwtVerifier } from 'aws-jwt-verify';
import type { Scope } from '#api/types';
import { countOnCredential, KeyRejected, type Bucket, type Principal } from '#db/api-keys';
import {
  consumeCode,
  createGrant,
  getClient,
  getGrant,
  getRefresh,
  grantIdsOf,
  grantItemKey,
  newSecret,
  revokeGrant,
  rotateRefresh,
  type Grant,
} from '#db/oauth';
import { getOrganization, getUser, isMember } from '#db/orgs';
import { getDeletionState } from '#db/workspace-deletion';
import { tokenSigner } from '#ports/token-signer';

/** Spec "Limits". */
export const CODE_TTL_MS = 60_000;
export const ACCESS_TOKEN_SECONDS = 3600;
export const REFRESH_TOKEN_MS = 90 * 86_400_000;
/** The scopes a client may ask for (spec "Scopes"). */
export const OAUTH_SCOPES: readonly Scope[] = ['read', 'draft', 'actions'];

/** An OAuth error response (RFC 6749 §5.2): `error` code and a description. */
export class OAuthError extends Error {
  constructor(
    readonly error: 'invalid_request' | 'invalid_grant' | 'invalid_client' | 'invalid_scope' | 'invalid_target' | 'unsupported_grant_type' | 'invalid_redirect_uri' | 'invalid_client_metadata',
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
  }
}

/** The token endpoint's success body (RFC 6749 §5.1). */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/**
 * The resource identifiers (RFC 8707) this service's tokens may be issued for, on the origin it is served from: the
 * origin itself (the default `aud`), the REST API (`/api/v1`) and the MCP endpoint (`/mcp`).
 */
export const acceptedAudiences = (origin: string): string[] => [origin, `${origin}/`, `${origin}/api/v1`, `${origin}/mcp`];

/** RFC 7636 §4.6: BASE64URL(SHA256(ASCII(code_verifier))). */
export const s256 = (verifier: string): string => createHash('sha256').update(verifier, 'ascii').digest('base64url');

/** RFC 7636 §4.1: 43–128 characters of [A-Z a-z 0-9 - . _ ~]. */
export const isValidVerifier = (v: string): boolean => /^[A-Za-z0-9\-._~]{43,128}$/.test(v);

/** Signs an access token of `grant` for `scopes`. */
async function accessToken(grant: Grant, scopes: Scope[], issuer: string, now: Date): Promise<string> {
  const [org, user] = await Promise.all([getOrganization(grant.orgId), getUser(grant.orgId, grant.userId)]);
  const name = [user?.firstName, user?.lastName].filter(Boolean).join(' ');
  const iat = Math.floor(now.getTime() / 1000);
  return (await tokenSigner()).sign(
    {
      iss: issuer,
      sub: grant.userId,
      aud: grant.resource,
      exp: iat + ACCESS_TOKEN_SECONDS,
      iat,
      jti: randomUUID(),
      client_id: grant.clientId,
      scope: scopes.join(' '),
      org_id: grant.orgId,
      ...(org?.name ? { org_name: org.name } : {}),
      ...(name ? { name } : {}),
      gid: grant.grantId,
    },
    'at+jwt',
  );
}

/**
 * `grant_type=authorization_code` (spec step 4).
 * @throws OAuthError `invalid_grant` for an unknown, used, expired or mismatched code or a wrong `code_verifier`
 */
export async function exchangeCode(input: { code: string; codeVerifier: string; clientId: string; redirectUri: string }, issuer: string, now: Date): Promise<TokenResponse> {
  const rec = input.code.length <= 100 ? await consumeCode(input.code, now) : undefined;
  if (!rec) throw new OAuthError('invalid_grant', 'Unknown authorization code.');
  if (!rec.fresh) {
    // OAuth 2.1 §4.1.3: a code used twice revokes the tokens it issued.
    await revokeGrant(rec.grantId, now);
    throw new OAuthError('invalid_grant', 'The authorization code was already used; the tokens it issued are revoked.');
  }
  if (rec.expiresAt <= now.getTime()) throw new OAuthError('invalid_grant', 'The authorization code has expired (codes are valid 60 seconds).');
  if (rec.clientId !== input.clientId) throw new OAuthError('invalid_grant', 'The code was issued to another client.');
  if (rec.redirectUri !== input.redirectUri) throw new OAuthError('invalid_grant', 'redirect_uri differs from the authorization request.');
  if (!isValidVerifier(input.codeVerifier) || s256(input.codeVerifier) !== rec.codeChallenge) throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge.');
  if (!(await isMember(rec.orgId, rec.userId, true))) throw new OAuthError('invalid_grant', 'The user is no longer a member of the organization.');
  const grant: Grant = { grantId: rec.grantId, orgId: rec.orgId, userId: rec.userId, clientId: rec.clientId, scopes: rec.scopes, resource: rec.resource, createdAt: now.toISOString() };
  const refresh = newSecret();
  if (!(await createGrant(grant, { token: refresh, expiresAt: now.getTime() + REFRESH_TOKEN_MS }))) {
    throw new OAuthError('invalid_grant', 'The authorization code was already used; the tokens it issued are revoked.');
  }
  return { access_token: await accessToken(grant, grant.scopes, issuer, now), token_type: 'Bearer', expires_in: ACCESS_TOKEN_SECONDS, refresh_token: refresh, scope: grant.scopes.join(' ') };
}

/** Revokes every grant of `userId` to `clientId` (refresh-token replay, or the user disconnecting the application). */
export async function revokeUserClient(userId: string, clientId: string, now: Date): Promise<number> {
  const ids = await grantIdsOf(userId, clientId);
  await Promise.all(ids.map((id) => revokeGrant(id, now)));
  return ids.length;
}

/**
 * `grant_type=refresh_token` (spec step 6): returns a new access token and a new refresh token, retiring the one sent.
 * @param scope optional narrower scope (RFC 6749 §6); default the grant's
 * @throws OAuthError `invalid_grant` (unknown, expired, revoked, reused — a reuse also revokes every token of the user
 *   and client), `invalid_scope` for a scope the grant lacks
 */
export async function refreshTokens(input: { refreshToken: string; clientId: string; scope?: string }, issuer: string, now: Date): Promise<TokenResponse> {
  const rec = await getRefresh(input.refreshToken);
  const grant = rec ? await getGrant(rec.grantId) : undefined;
  if (!rec || !grant || grant.clientId !== input.clientId) throw new OAuthError('invalid_grant', 'Unknown refresh token.');
  const replay = async () => {
    await revokeUserClient(grant.userId, grant.clientId, now);
    return new OAuthError('invalid_grant', 'The refresh token was already used: every token of this authorization is revoked. Authorize again.');
  };
  if (rec.usedAt) throw await replay();
  if (grant.revokedAt) throw new OAuthError('invalid_grant', 'The authorization was revoked.');
  if (rec.expiresAt <= now.getTime()) throw new OAuthError('invalid_grant', 'The refresh token has expired.');
  let scopes = grant.scopes;
  if (input.scope !== undefined) {
    const asked = input.scope.split(' ').filter(Boolean);
    if (!asked.length || asked.some((s) => !grant.scopes.includes(s as Scope))) throw new OAuthError('invalid_scope', 'A refresh may only narrow the granted scopes.');
    scopes = grant.scopes.filter((s) => asked.includes(s));
  }
  const next = newSecret();
  const rotated = await rotateRefresh(input.refreshToken, grant.grantId, { token: next, expiresAt: now.getTime() + REFRESH_TOKEN_MS }, now);
  if (rotated === 'reused') throw await replay();
  if (rotated === 'revoked') throw new OAuthError('invalid_grant', 'The authorization was revoked.');
  if (!(await isMember(grant.orgId, grant.userId, true))) throw new OAuthError('invalid_grant', 'The user is no longer a member of the organization.');
  return { access_token: await accessToken(grant, scopes, issuer, now), token_type: 'Bearer', expires_in: ACCESS_TOKEN_SECONDS, refresh_token: next, scope: scopes.join(' ') };
}

/**
 * RFC 7009 revocation: a refresh token or an access token of `clientId` revokes its whole grant. Unknown tokens,
 * another client's tokens and tokens already revoked change nothing (the endpoint answers 200 either way).
 */
export async function revokeToken(token: string, clientId: string | undefined, issuer: string, now: Date): Promise<void> {
  let grantId: string | undefined;
  const rec = await getRefresh(token);
  if (rec) grantId = rec.grantId;
  else if (token.split('.').length === 3) grantId = (await verifiedClaims(token, issuer).catch(() => undefined))?.gid;
  if (!grantId) return;
  const grant = await getGrant(grantId);
  if (!grant || (clientId !== undefined && grant.clientId !== clientId)) return;
  await revokeGrant(grantId, now);
}

/** The claims of a verified access token. */
export interface AccessClaims {
  sub: string;
  org_id: string;
  client_id: string;
  scope: string;
  gid: string;
}

const makeVerifier = (issuer: string) =>
  JwtVerifier.create({
    issuer,
    audience: acceptedAudiences(issuer),
    jwksUri: `${issuer}/.well-known/jwks.json`,
    customJwtCheck: ({ header, payload }) => {
      if (header.typ !== 'at+jwt') throw new Error('not an access token (typ)');
      for (const c of ['sub', 'org_id', 'client_id', 'scope', 'gid']) if (typeof payload[c] !== 'string') throw new Error(`missing ${c}`);
    },
  });
const verifiers = new Map<string, ReturnType<typeof makeVerifier>>();

/**
 * Verifies signature (ES256 with the service's JWKS; `alg: none`, another key or another algorithm refused), `typ`
 * (`at+jwt`), `iss` (this origin), `aud` (one of {@link acceptedAudiences}) and `exp`.
 * @throws Error for any invalid token
 */
export async function verifiedClaims(token: string, issuer: string): Promise<AccessClaims> {
  let verifier = verifiers.get(issuer);
  if (!verifier) {
    verifier = makeVerifier(issuer);
    verifier.cacheJwks((await (await tokenSigner()).publicJwks()) as unknown as Parameters<typeof verifier.cacheJwks>[0]);
    verifiers.set(issuer, verifier);
  }
  return (await verifier.verify(token)) as unknown as AccessClaims;
}

/** The token is not a valid, live credential of a current member. */
export class TokenRejected extends Error {}

/**
 * Authenticates an OAuth access token on an API call and counts it in `bucket` (spec "OAuth 2.1 flow" step 7).
 * @throws TokenRejected (bad signature, claims, revoked grant, removed member); KeyRateLimited from the counter
 */
export async function authenticateAccessToken(token: string, issuer: string, bucket: Bucket, operationId: string, now: number): Promise<Principal> {
  let claims: AccessClaims;
  try {
    claims = await verifiedClaims(token, issuer);
  } catch {
    throw new TokenRejected('invalid access token');
  }
  let principal: Principal;
  try {
    principal = await countOnCredential(grantItemKey(claims.gid), bucket, operationId, now);
  } catch (err) {
    if (err instanceof KeyRejected) throw new TokenRejected('revoked');
    throw err;
  }
  if (principal.orgId !== claims.org_id || principal.userId !== claims.sub) throw new TokenRejected('token does not match its grant');
  // Membership and the deletion freeze are re-read on every call: a grant carries neither (an org key's item
  // carries the freeze flag; a grant item is not rewritten when the workspace is scheduled for deletion).
  const [member, deletion] = await Promise.all([isMember(principal.orgId, principal.userId, true), getDeletionState(principal.orgId, true)]);
  if (!member) throw new TokenRejected('not a member');
  const tokenScopes = claims.scope.split(' ');
  return { ...principal, scopes: principal.scopes.filter((s) => tokenScopes.includes(s)), ...(deletion ? { frozenUntil: deletion.dueAt } : {}) };
}

/** Checks a client and its redirect URI (exact string match, RFC 9700 §4.1.3). @returns the client or undefined */
export async function clientWithRedirect(clientId: string, redirectUri: string) {
  const client = await getClient(clientId);
  return client && client.redirectUris.includes(redirectUri) ? client : undefined;
}
