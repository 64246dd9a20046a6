/**
 * Turns any error into the spec's envelope (spec "Errors"); outermost of the request's own middlewares (only
 * the observability ones and the access log wrap it). Unexpected errors become 500 `internal_error` with only
 * the request id; the original is logged (ERROR, with its stack and the request's keys), never returned.
 */
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { isExpectedError, toErrorResponse } from '#http/errors';
import { countError } from '#db/api-keys';
import { stateOf } from '#http/state';
import { logger } from '#observability/powertools';

export function errorEnvelope(): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyResultV2> {
  return {
    onError: async (request) => {
      const state = stateOf(request);
      if (!isExpectedError(request.error)) {
        logger.error('unexpected error', { requestId: request.context.awsRequestId, error: request.error instanceof Error ? request.error : String(request.error) });
      }
      request.response = toErrorResponse(request.error, request.context.awsRequestId, state.op);
      if (state.principal) await countError(state.principal);
    },
  };
}
