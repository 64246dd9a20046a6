/**
 * The API's check of an OAuth access token (spec "OAuth 2.1 flow" step 7), apart from the authorization server's
 * rules (shared/use-cases/oauth.ts) so that the API's functions carry no signer and no KMS client: the public key
 * comes from the table, where the issuer published it (shared/use-cases/signing-key-cache.ts).
 *
 * A token is authenticated by its signature, then counted on its grant item (one conditional `UpdateItem`, which
 * also refuses a revoked grant), then the membership is re-read (a removed user gets 401 at once).
 */
import { countOnCredential, KeyRejected, type Bucket, type Principal } from '#db/api-keys';
import { grantItemKey } from '#db/oauth';
import { isMember } from '#db/orgs';
import { getDeletionState } from '#db/workspace-deletion';
import { cachedSigningKey, publishedSigningKey } from '#use-cases/signing-key-cache';
import type { AccessClaims } from '#use-cases/access-token-signature';

export type { AccessClaims };

/**
 * The resource identifiers (RFC 8707) this service's tokens may be issued for, on the origin it is served from: the
 * origin itself (the default `aud`), the REST API (`/api/v1`) and the MCP endpoint (`/mcp`).
 */
export const acceptedAudiences = (origin: string): string[] => [origin, `${origin}/`, `${origin}/api/v1`, `${origin}/mcp`];

/** The token is not a valid, live credential of a current member. */
export class TokenRejected extends Error {}

/**
 * Verifies signature (ES256 with the published key the header's `kid` names; `alg: none`, an unpublished key, another
 * key or another algorithm refused), `typ` (`at+jwt`, RFC 9068 §2.1), `iss` (this origin), `aud` (one of
 * {@link acceptedAudiences}) and `exp` (shared/use-cases/access-token-signature.ts, imported on the first token: a lazy
 * chunk in the API groups, lib/bundling/lazy-modules.ts).
 * @throws TokenRejected for any invalid token; a failed table read propagates as itself (a 5xx, not a 401)
 */
export async function verifiedClaims(token: string, issuer: string): Promise<AccessClaims> {
  const { checkAccessToken } = await import('#use-cases/access-token-signature');
  const checked = await checkAccessToken(token, issuer, acceptedAudiences(issuer), publishedSigningKey, cachedSigningKey);
  if ('refused' in checked) throw new TokenRejected(checked.refused);
  return checked.claims;
}

/**
 * Authenticates an OAuth access token on an API call and counts it in `bucket` (spec "OAuth 2.1 flow" step 7).
 * @throws TokenRejected (bad signature, claims, revoked grant, removed member); KeyRateLimited from the counter
 */
export async function authenticateAccessToken(token: string, issuer: string, bucket: Bucket, operationId: string, now: number): Promise<Principal> {
  const claims = await verifiedClaims(token, issuer);
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
