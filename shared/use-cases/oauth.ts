/**
 * The OAuth 2.1 authorization server's rules (spec "OAuth 2.1 flow", "Limits"): code redemption with PKCE, token
 * issue, refresh-token rotation with reuse detection, revocation. The API's check of an access token is
 * shared/use-cases/access-tokens.ts, which the API's functions import instead of this module (it holds the signer).
 *
 * - Authorization code: 60 s, single use; a replayed code revokes the grant it issued (RFC 9700 §4.2.4 / OAuth 2.1
 *   §4.1.3). Of parallel redemptions exactly one succeeds (a conditional write).
 * - Access token: a JWT (RFC 9068: `typ: at+jwt`; `iss`, `sub`, `aud`, `exp`, `iat`, `jti`, `client_id`, `scope`, plus
 *   `org_id`, `org_name`, `name` and `gid`, its grant), 1 hour, signed ES256 by the signing-key port, whose public
 *   key is published in the table (shared/db/signing-keys.ts) before the first token it signs.
 * - Refresh token: opaque, 90 days, rotated on every use. Presenting a used one is a replay: every grant of that user
 *   and client is revoked, so every live access and refresh token dies, the newest included (RFC 9700 §4.14.2).
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Scope } from '#api/types';
import {
  consumeCode,
  createGrant,
  getClient,
  getGrant,
  getRefresh,
  grantIdsOf,
  newSecret,
  revokeGrant,
  rotateRefresh,
  type Grant,
} from '#db/oauth';
import { getOrganization, getUser, isMember } from '#db/orgs';
import { tableName } from '#db/client';
import { publishSigningKey } from '#db/signing-keys';
import { tokenSigner, type TokenSigner } from '#ports/token-signer';
import { TokenRejected, verifiedClaims } from '#use-cases/access-tokens';

export { acceptedAudiences } from '#use-cases/access-tokens';

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

/** RFC 7636 §4.6: BASE64URL(SHA256(ASCII(code_verifier))). */
export const s256 = (verifier: string): string => createHash('sha256').update(verifier, 'ascii').digest('base64url');

/** RFC 7636 §4.1: 43–128 characters of [A-Z a-z 0-9 - . _ ~]. */
export const isValidVerifier = (v: string): boolean => /^[A-Za-z0-9\-._~]{43,128}$/.test(v);

/** table|kid → the publication of that signing key (once per container, per table). */
const published = new Map<string, Promise<void>>();

/**
 * The signer, once its public key is published where the API's functions read it (shared/db/signing-keys.ts): a
 * token only exists after its key is readable, so a verifier may refuse any `kid` it cannot find.
 */
async function publishedSigner(): Promise<TokenSigner> {
  const signer = await tokenSigner();
  const entry = `${tableName()}|${signer.kid}`;
  let done = published.get(entry);
  if (!done) {
    const jwk = (await signer.publicJwks()).keys.find((k) => k.kid === signer.kid);
    if (!jwk) throw new Error(`the signer's JWKS lacks its own kid ${signer.kid}`);
    done = publishSigningKey(jwk);
    published.set(entry, done);
    done.catch(() => published.delete(entry)); // a failed put is retried by the next token
  }
  await done;
  return signer;
}

/** Signs an access token of `grant` for `scopes`. */
async function accessToken(grant: Grant, scopes: Scope[], issuer: string, now: Date): Promise<string> {
  const [org, user] = await Promise.all([getOrganization(grant.orgId), getUser(grant.orgId, grant.userId)]);
  const name = [user?.firstName, user?.lastName].filter(Boolean).join(' ');
  const iat = Math.floor(now.getTime() / 1000);
  return (await publishedSigner()).sign(
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
  else if (token.split('.').length === 3) {
    grantId = (
      await verifiedClaims(token, issuer).catch((err: unknown) => {
        if (err instanceof TokenRejected) return undefined;
        throw err;
      })
    )?.gid;
  }
  if (!grantId) return;
  const grant = await getGrant(grantId);
  if (!grant || (clientId !== undefined && grant.clientId !== clientId)) return;
  await revokeGrant(grantId, now);
}

/** Checks a client and its redirect URI (exact string match, RFC 9700 §4.1.3). @returns the client or undefined */
export async function clientWithRedirect(clientId: string, redirectUri: string) {
  const client = await getClient(clientId);
  return client && client.redirectUris.includes(redirectUri) ? client : undefined;
}
