/**
 * Finds the manifest operation of the request from API Gateway's `routeKey`. The `$default` route (no
 * operation matched) and a route of another group both answer 404 `not_found` in the envelope.
 */
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { operationByRouteKey } from '#api/operations';
import type { LambdaGroup } from '#api/types';
import { ApiError } from '#http/errors';
import { clockNow } from '#ports/clock';
import { stateOf } from '#http/state';

export function resolveOperation(group: LambdaGroup): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyResultV2> {
  return {
    before: async (request) => {
      const state = stateOf(request);
      state.now = clockNow();
      const op = operationByRouteKey(request.event.routeKey);
      if (!op || op.group !== group) {
        throw new ApiError(404, 'not_found', `No route for ${request.event.requestContext?.http?.method ?? ''} ${request.event.rawPath}.`);
      }
      state.op = op;
    },
  };
}
