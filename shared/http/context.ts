/** Types shared by the request pipeline and the operation handlers. */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { CatalogEntry, OperationInput, RegisteredOperation } from '#api/operation';
import type { Principal } from '#db/api-keys';

/** What an operation handler receives besides its validated input. */
export interface RequestContext {
  op: RegisteredOperation;
  principal: Principal;
  requestId: string;
  /** Request time (one clock read per request, so a handler's dates agree). */
  now: Date;
  event: APIGatewayProxyEventV2;
  /** Every operation of the API; present only in a function whose operations use the `catalog` capability. */
  catalog?: readonly CatalogEntry[];
}

/** A successful result; `statusCode` defaults to 200 (spec: "Successful operations return 200"). */
export interface OperationResult {
  statusCode?: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** State the middlewares pass along on middy's `request.internal` (under `pipeline`). */
export interface PipelineState {
  op?: RegisteredOperation;
  principal?: Principal;
  input?: OperationInput;
  idempotencyPk?: string;
  /** A stored response to replay (`Idempotency-Key` retry): the handler returns it instead of running. */
  replay?: APIGatewayProxyStructuredResultV2;
  /** `performance.now()` when the request entered the pipeline (ms), for the access log's latency. */
  startedMs?: number;
  now: Date;
}
