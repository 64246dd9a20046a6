/**
 * Authenticates the bearer credential and counts the request against its rate-limit bucket (spec
 * "Authentication", "Limits") in one DynamoDB round trip, then checks the operation's scope.
 *
 * - `mcp_at_` organization keys: every operation but `/api/v1/orgs/*`.
 * - `rsk_` partner keys: only `/api/v1/orgs/*`; anywhere else 401 (wrong type), without a table read.
 * - OAuth 2.1 access tokens (JWTs): the same operations and scopes as an organization key; verified by signature,
 *   counted on their grant (which refuses a revoked one) and the membership re-read (shared/use-cases/access-tokens.ts).
 *
 * Every 401 and 403 carries `WWW-Authenticate: Bearer` with `resource_metadata` naming the RFC 9728
 * protected-resource metadata, so an OAuth client (an MCP client) can find the authorization server.
 *
 * A workspace scheduled for deletion is frozen: a write other than those marked `whileFrozen` is refused with
 * `WorkspaceFrozen` (shared/domain/workspace-lifecycle.ts; 422 naming `workspace`, or 409 on an (IK) operation),
 * checked on the key item authentication returned anyway.
 *
 * Once the credential is known (a rate-limited one included), every log line of the request carries its `orgId`.
 */
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { ApiError, InsufficientScopeError, RateLimitedError, UnauthorizedError } from '#http/errors';
import { authenticateAccessToken, TokenRejected } from '#use-cases/access-tokens';
import { requestOrigin } from '#ports/public-url';
import { authenticateAndCount, KeyRateLimited, KeyRejected, ORG_KEY_PREFIX, PARTNER_KEY_PREFIX, type Bucket } from '#db/api-keys';
import { stateOf } from '#http/state';
import { annotateRequest } from '#observability/powertools';
import { assertWritable } from '#domain/workspace-lifecycle';

/** GET and HEAD use the read bucket; every other method the write bucket (spec "Limits"). */
export const bucketOf = (method: string): Bucket => (method === 'GET' || method === 'HEAD' ? 'read' : 'write');

/** The bearer value of an Authorization header, or undefined. */
export function bearerOf(headers: Record<string, string | undefined> | undefined): string | undefined {
  const raw = headers?.authorization ?? headers?.Authorization;
  const m = raw ? /^Bearer\s+(\S+)\s*$/i.exec(raw) : null;
  return m?.[1];
}

/** RFC 9728 §5.1: where the protected-resource metadata of this origin is. */
export const resourceMetadataUrl = (origin: string) => `${origin}/.well-known/oauth-protected-resource`;

/** A compact JWS: three base64url segments. */
const looksLikeJwt = (token: string) => /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token);

/**
 * The 401 or 403 with its RFC 6750 §3 / RFC 9728 §5.1 challenge; a 403 names the scope the operation needs
 * (RFC 6750 §3 `scope`), so a client can ask for it.
 */
function withChallenge(err: ApiError, origin: string): ApiError {
  const params = [`resource_metadata="${resourceMetadataUrl(origin)}"`];
  if (err instanceof InsufficientScopeError) params.unshift('error="insufficient_scope"', `scope="${err.required}"`);
  else if (err.message !== 'Missing bearer credential.') params.unshift('error="invalid_token"');
  return new ApiError(err.statusCode, err.code, err.message, { ...err.headers, 'WWW-Authenticate': `Bearer ${params.join(', ')}` });
}

export function authenticate(): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyResultV2> {
  return {
    before: async (request) => {
      try {
        await check(request);
      } catch (err) {
        if (err instanceof UnauthorizedError || err instanceof InsufficientScopeError) throw withChallenge(err, requestOrigin(request.event));
        throw err;
      }
    },
  };
}

async function check(request: middy.Request<APIGatewayProxyEventV2, APIGatewayProxyResultV2>): Promise<void> {
      const state = stateOf(request);
      const op = state.op!;
      const token = bearerOf(request.event.headers);
      if (!token) throw new UnauthorizedError('Missing bearer credential.');
      const isPartnerOp = op.access === 'partner';
      let jwt = false;
      if (token.startsWith(PARTNER_KEY_PREFIX)) {
        if (!isPartnerOp) throw new UnauthorizedError('A partner key is accepted only on /api/v1/orgs.');
      } else if (token.startsWith(ORG_KEY_PREFIX)) {
        if (isPartnerOp) throw new UnauthorizedError('Partner operations need a partner key.');
      } else if (looksLikeJwt(token)) {
        if (isPartnerOp) throw new UnauthorizedError('Partner operations need a partner key.');
        jwt = true;
      } else {
        throw new UnauthorizedError('Unrecognized credential.');
      }
      try {
        state.principal = jwt
          ? await authenticateAccessToken(token, requestOrigin(request.event), bucketOf(op.method), op.operationId, state.now.getTime())
          : await authenticateAndCount(token, bucketOf(op.method), op.operationId, state.now.getTime());
      } catch (err) {
        if (err instanceof KeyRejected || err instanceof TokenRejected) throw new UnauthorizedError('Invalid or revoked credential.');
        if (err instanceof KeyRateLimited) {
          annotateRequest({ orgId: err.orgId });
          throw new RateLimitedError(err.bucket);
        }
        throw err;
      }
      annotateRequest({ orgId: state.principal.orgId });
      if (state.principal.kind !== (isPartnerOp ? 'partner' : 'org')) throw new UnauthorizedError('Wrong credential type.');
      // A partner key's permissions: `read` for the GET operations, `actions` for provisioning and seats.
      const needed = op.access === 'partner' ? (op.method === 'GET' ? 'read' : 'actions') : op.access;
      if (!state.principal.scopes.includes(needed)) throw new InsufficientScopeError(needed);
      // The freeze flag came back with the key item above: refusing writes costs no extra call.
      assertWritable(state.principal.frozenUntil, op);
}
