/**
 * Finds the operation of the request from API Gateway's `routeKey`, among the operations of the function's own
 * group. The `$default` route (no operation matched) and a route of another group both answer 404 `not_found`
 * in the envelope. From here on every log line of the request carries `operationId`.
 */
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { routeKeyOf, type RegisteredOperation } from '#api/operation';
import type { LambdaGroup } from '#api/types';
import { RouteNotFoundError } from '#http/errors';
import { clockNow } from '#ports/clock';
import { stateOf } from '#http/state';
import { annotateRequest } from '#observability/powertools';

/**
 * @param group the function's Lambda group
 * @param ops the group's operations
 * @throws Error (at wiring time) when an operation of `ops` belongs to another group
 */
export function resolveOperation(group: LambdaGroup, ops: readonly RegisteredOperation[]): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyResultV2> {
  const foreign = ops.find((op) => op.group !== group);
  if (foreign) throw new Error(`${foreign.operationId} belongs to group ${foreign.group}, not ${group}`);
  const byRouteKey = new Map(ops.map((op) => [routeKeyOf(op), op]));
  return {
    before: async (request) => {
      const state = stateOf(request);
      state.now = clockNow();
      const op = byRouteKey.get(request.event.routeKey);
      if (!op) throw new RouteNotFoundError(request.event.requestContext?.http?.method ?? '', request.event.rawPath);
      state.op = op;
      annotateRequest({ operationId: op.operationId });
    },
  };
}
