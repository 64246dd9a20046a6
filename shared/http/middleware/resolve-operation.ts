/**
 * Finds the manifest operation of the request from API Gateway's `routeKey`, among the operations of the
 * function's own group. The `$default` route (no operation matched) and a route of another group both answer
 * 404 `not_found` in the envelope.
 */
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { routeKeyOf } from '#api/route-key';
import type { LambdaGroup, OperationSpec } from '#api/types';
import { ApiError } from '#http/errors';
import { clockNow } from '#ports/clock';
import { stateOf } from '#http/state';

/**
 * @param group the function's Lambda group
 * @param manifest the group's operations
 * @throws Error (at wiring time) when an operation of `manifest` belongs to another group
 */
export function resolveOperation(group: LambdaGroup, manifest: readonly OperationSpec[]): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyResultV2> {
  const foreign = manifest.find((op) => op.group !== group);
  if (foreign) throw new Error(`${foreign.operationId} belongs to group ${foreign.group}, not ${group}`);
  const byRouteKey = new Map(manifest.map((op) => [routeKeyOf(op), op]));
  return {
    before: async (request) => {
      const state = stateOf(request);
      state.now = clockNow();
      const op = byRouteKey.get(request.event.routeKey);
      if (!op) {
        throw new ApiError(404, 'not_found', `No route for ${request.event.requestContext?.http?.method ?? ''} ${request.event.rawPath}.`);
      }
      state.op = op;
    },
  };
}
