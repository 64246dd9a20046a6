/**
 * `Idempotency-Key` for operations marked (IK) (spec "Errors"): at most 200 characters; the first request
 * executes and its response is stored; an identical retry replays it verbatim with
 * `Idempotency-Replayed: true`; the key reused for another operation (or another request) is 422; a retry
 * while the first is still running is 409 `conflict`. Responses with status ≥ 500 are not stored, so the
 * client's retry runs again. Records expire after 24 h.
 */
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { toErrorResponse, type JsonResponse } from '#http/errors';
import { Conflict, InvalidInput } from '#domain/errors';
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey, requestFingerprint } from '#db/idempotency';
import { rawBody } from '#http/middleware/validate-input';
import { stateOf } from '#http/state';

export const MAX_IDEMPOTENCY_KEY_LENGTH = 200;
const FIELD = 'Idempotency-Key';

export function idempotency(): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyResultV2> {
  return {
    before: async (request) => {
      const state = stateOf(request);
      const key = request.event.headers?.['idempotency-key'];
      if (!state.op!.idempotent || key === undefined) return;
      if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
        throw new InvalidInput({ [FIELD]: `must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters` });
      }
      const fingerprint = requestFingerprint(request.event.requestContext.http.method, request.event.rawPath, rawBody(request.event));
      const claim = await claimIdempotencyKey(state.principal!.orgId, key, state.op!.operationId, fingerprint, state.now.getTime());
      switch (claim.kind) {
        case 'execute':
          state.idempotencyPk = claim.pk;
          return;
        case 'replay':
          // Returned by the pipeline's handler, not here: an early return would skip every `after` (access log, metrics).
          state.replay = { ...claim.response, headers: { ...claim.response.headers, 'Idempotency-Replayed': 'true' } };
          return;
        case 'in_flight':
          throw new Conflict('A request with this Idempotency-Key is still in progress; retry later.');
        case 'other_operation':
          throw new InvalidInput({ [FIELD]: 'was already used for a different operation' });
        case 'other_request':
          throw new InvalidInput({ [FIELD]: 'was already used with a different request body or path' });
      }
    },
    after: async (request) => {
      const pk = stateOf(request).idempotencyPk;
      if (pk) await completeIdempotencyKey(pk, request.response as JsonResponse);
    },
    onError: async (request) => {
      const pk = stateOf(request).idempotencyPk;
      if (!pk) return;
      // Runs before the envelope middleware (onError runs innermost first): build the same envelope.
      const response = toErrorResponse(request.error, request.context.awsRequestId, stateOf(request).op);
      if (response.statusCode < 500) await completeIdempotencyKey(pk, response);
      else await releaseIdempotencyKey(pk);
    },
  };
}
