/**
 * Builds one resource group's Lambda handler: the named middleware chain (outermost first) of
 * ARCHITECTURE.md "Request pipeline", then dispatch to the operation's handler by operationId.
 * An operation of the group without a handler answers 501 `not_implemented`.
 */
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { LambdaGroup, OperationSpec } from '#api/types';
import { NotImplementedError } from '#http/errors';
import type { OperationHandler } from '#http/context';
import { stateOfContext } from '#http/state';
import { errorEnvelope } from '#http/middleware/error-envelope';
import { resolveOperation } from '#http/middleware/resolve-operation';
import { authenticate } from '#http/middleware/authenticate';
import { validateInput } from '#http/middleware/validate-input';
import { idempotency } from '#http/middleware/idempotency';

export type GroupHandler = middy.MiddyfiedHandler<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>;

export interface GroupHandlerOptions {
  /**
   * Dispatch to a given handler even when the manifest marks its operation `planned`. For tests that drive
   * the pipeline (e.g. `Idempotency-Key` on an (IK) operation) before any (IK) operation is implemented;
   * deployed handlers never set it.
   */
  allowPlanned?: boolean;
}

/**
 * @param group the Lambda group whose routes this function serves
 * @param manifest the group's operations (`#api/manifest/<group>`): importing only these keeps the other
 *   groups' schemas out of the bundle
 * @param handlers operationId → implementation (operations of the group without one answer 501)
 * @throws Error at module load when `manifest` holds another group's operation (a wiring mistake)
 */
export function groupHandler(
  group: LambdaGroup,
  manifest: readonly OperationSpec[],
  handlers: Record<string, OperationHandler>,
  options: GroupHandlerOptions = {},
): GroupHandler {
  return middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>()
    .use(errorEnvelope())
    .use(resolveOperation(group, manifest))
    .use(authenticate())
    .use(validateInput())
    .use(idempotency())
    .handler(async (event, context) => {
      const state = stateOfContext(context);
      const op = state.op!;
      const impl = handlers[op.operationId];
      if (!impl || (op.availability.status !== 'implemented' && !options.allowPlanned)) {
        throw new NotImplementedError(op.operationId, op.availability.status === 'planned' ? op.availability.issue : 'no handler');
      }
      const result = await impl(state.input!, {
        op,
        principal: state.principal!,
        requestId: context.awsRequestId,
        now: state.now,
        event,
      });
      return {
        statusCode: result.statusCode ?? 200,
        headers: { 'content-type': 'application/json', ...result.headers },
        body: JSON.stringify(result.body),
      };
    });
}
