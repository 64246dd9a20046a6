/**
 * Authenticates the bearer credential and counts the request against its rate-limit bucket (spec
 * "Authentication", "Limits") in one DynamoDB round trip, then checks the operation's scope.
 *
 * - `mcp_at_` organization keys: every operation but `/api/v1/orgs/*`.
 * - `rsk_` partner keys: only `/api/v1/orgs/*`; anywhere else 401 (wrong type), without a table read.
 * - OAuth 2.1 JWTs are not accepted by this build yet: 401.
 *
 * A workspace scheduled for deletion is frozen: a write other than those marked `whileFrozen` gets 409 `conflict`
 * (shared/domain/workspace-lifecycle.ts), checked on the key item authentication returned anyway.
 *
 * Once the credential is known (a rate-limited one included), every log line of the request carries its `orgId`.
 */
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { InsufficientScopeError, RateLimitedError, UnauthorizedError } from '#http/errors';
import { authenticateAndCount, KeyRateLimited, KeyRejected, ORG_KEY_PREFIX, PARTNER_KEY_PREFIX, type Bucket } from '#db/api-keys';
import { stateOf } from '#http/state';
import { logger } from '#observability/powertools';
import { assertWritable } from '#domain/workspace-lifecycle';

/** GET and HEAD use the read bucket; every other method the write bucket (spec "Limits"). */
export const bucketOf = (method: string): Bucket => (method === 'GET' || method === 'HEAD' ? 'read' : 'write');

/** The bearer value of an Authorization header, or undefined. */
export function bearerOf(headers: Record<string, string | undefined> | undefined): string | undefined {
  const raw = headers?.authorization ?? headers?.Authorization;
  const m = raw ? /^Bearer\s+(\S+)\s*$/i.exec(raw) : null;
  return m?.[1];
}

export function authenticate(): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyResultV2> {
  return {
    before: async (request) => {
      const state = stateOf(request);
      const op = state.op!;
      const token = bearerOf(request.event.headers);
      if (!token) throw new UnauthorizedError('Missing bearer credential.');
      const isPartnerOp = op.access === 'partner';
      if (token.startsWith(PARTNER_KEY_PREFIX)) {
        if (!isPartnerOp) throw new UnauthorizedError('A partner key is accepted only on /api/v1/orgs.');
      } else if (token.startsWith(ORG_KEY_PREFIX)) {
        if (isPartnerOp) throw new UnauthorizedError('Partner operations need a partner key.');
      } else {
        throw new UnauthorizedError('Unrecognized credential.');
      }
      try {
        state.principal = await authenticateAndCount(token, bucketOf(op.method), op.operationId, state.now.getTime());
      } catch (err) {
        if (err instanceof KeyRejected) throw new UnauthorizedError('Invalid or revoked credential.');
        if (err instanceof KeyRateLimited) {
          logger.appendKeys({ orgId: err.orgId });
          throw new RateLimitedError(err.bucket);
        }
        throw err;
      }
      logger.appendKeys({ orgId: state.principal.orgId });
      if (state.principal.kind !== (isPartnerOp ? 'partner' : 'org')) throw new UnauthorizedError('Wrong credential type.');
      if (op.access !== 'partner' && !state.principal.scopes.includes(op.access)) throw new InsufficientScopeError(op.access);
      // The freeze flag came back with the key item above: refusing writes costs no extra call.
      assertWritable(state.principal.frozenUntil, op);
    },
  };
}
