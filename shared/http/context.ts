/** Types shared by the request pipeline and the operation handlers. */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { OperationSpec } from '#api/types';
import type { Principal } from '#db/api-keys';

/** What an operation handler receives besides its validated input. */
export interface RequestContext {
  op: OperationSpec;
  principal: Principal;
  requestId: string;
  /** Request time (one clock read per request, so a handler's dates agree). */
  now: Date;
  event: APIGatewayProxyEventV2;
}

/** Validated, typed input: zod output of the manifest's schemas. */
export interface OperationInput<P = any, Q = any, B = any> {
  path: P;
  query: Q;
  body: B;
}

/** A successful result; `statusCode` defaults to 200 (spec: "Successful operations return 200"). */
export interface OperationResult {
  statusCode?: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type OperationHandler = (input: OperationInput, ctx: RequestContext) => Promise<OperationResult>;

/** State the middlewares pass along on middy's `request.internal`. */
export interface PipelineState {
  op?: OperationSpec;
  principal?: Principal;
  input?: OperationInput;
  idempotencyPk?: string;
  now: Date;
}
