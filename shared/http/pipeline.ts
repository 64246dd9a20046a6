/**
 * Builds one resource group's Lambda handler: the named middleware chain (outermost first) of the team's
 * ../shared/ARCHITECTURE.md "Request pipeline" (docs/architecture.md lists it), then the operation's own handler.
 * A planned operation answers 501 `not_implemented`.
 * A REST API (payload 1.0) event, from the partner stage, is first rewritten to 2.0. The chain then opens with the Powertools middlewares (trace, Lambda context on every log line, metrics flush) and
 * the access log, so they see every request's outcome; no middleware returns early, so every `after` runs.
 */
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { CatalogEntry, RegisteredOperation } from '#api/operation';
import type { LambdaGroup } from '#api/types';
import { NotImplementedError } from '#http/errors';
import { stateOfContext } from '#http/state';
import { errorEnvelope } from '#http/middleware/error-envelope';
import { resolveOperation } from '#http/middleware/resolve-operation';
import { authenticate } from '#http/middleware/authenticate';
import { validateInput } from '#http/middleware/validate-input';
import { idempotency } from '#http/middleware/idempotency';
import { accessLog } from '#http/middleware/access-log';
import { observability } from '#observability/powertools';
import { restPayloadV1 } from '#http/middleware/rest-payload-v1';

export type GroupHandler = middy.MiddyfiedHandler<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>;

export interface GroupHandlerOptions {
  /** Every operation of the API, for a group whose operations use the `catalog` capability. */
  catalog?: readonly CatalogEntry[];
}

/**
 * @param group the Lambda group whose routes this function serves
 * @param ops the group's operations (its Lambda bundles only these, and their schemas and dependencies)
 * @throws Error at module load when `ops` holds another group's operation (a wiring mistake)
 */
export function groupHandler(group: LambdaGroup, ops: readonly RegisteredOperation[], options: GroupHandlerOptions = {}): GroupHandler {
  return middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>()
    .use(restPayloadV1())
    .use(observability())
    .use(accessLog())
    .use(errorEnvelope())
    .use(resolveOperation(group, ops))
    .use(authenticate())
    .use(validateInput())
    .use(idempotency())
    .handler(async (event, context) => {
      const state = stateOfContext(context);
      if (state.replay) return state.replay;
      const op = state.op!;
      if (!op.handler) throw new NotImplementedError(op.operationId, op.planned ?? 'no handler');
      const result = await op.handler(state.input!, {
        op,
        principal: state.principal!,
        requestId: context.awsRequestId,
        now: state.now,
        event,
        catalog: options.catalog,
      });
      return {
        statusCode: result.statusCode ?? 200,
        headers: { 'content-type': 'application/json', ...result.headers },
        body: JSON.stringify(result.body),
      };
    });
}
