/**
 * Outermost middleware: turns any error into the spec's envelope (spec "Errors"). Unexpected errors become
 * 500 `internal_error` with only the request id; the original is logged, never returned.
 */
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { isExpectedError, toErrorResponse } from '#http/errors';
import { countError } from '#db/api-keys';
import { stateOf } from '#http/state';

export function errorEnvelope(): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyResultV2> {
  return {
    onError: async (request) => {
      const state = stateOf(request);
      if (!isExpectedError(request.error)) {
        console.error(
          JSON.stringify({
            level: 'error',
            requestId: request.context.awsRequestId,
            operation: state.op?.operationId,
            error: request.error instanceof Error ? { name: request.error.name, message: request.error.message, stack: request.error.stack } : String(request.error),
          }),
        );
      }
      request.response = toErrorResponse(request.error, request.context.awsRequestId);
      if (state.principal) await countError(state.principal);
    },
  };
}
