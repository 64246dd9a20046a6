/**
 * Types of the operations manifest: one `OperationSpec` per operation of `../shared/spec/api-v1.md`.
 * Everything else (API Gateway routes, the local router, `GET /catalog`, scope checks) derives from it.
 */
import type * as z from '#api/zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Organization scopes, spec "Scopes": read ⊂ draft ⊂ actions are independent grants, not a hierarchy. */
export type Scope = 'read' | 'draft' | 'actions';

/** `partner` marks `/api/v1/orgs/*`, callable only with an `rsk_` partner key. */
export type Access = Scope | 'partner';

/** One Lambda function per resource group (`functions/<group>/handler.ts`). */
export type LambdaGroup =
  | 'meta'
  | 'transactions'
  | 'key-dates'
  | 'tasks'
  | 'documents'
  | 'extractions'
  | 'messaging'
  | 'contacts'
  | 'disclosures'
  | 'proposals'
  | 'templates'
  | 'webhooks'
  | 'account'
  | 'partner';

/**
 * Where an operation stands: `implemented` has a real handler; `planned` answers 501 `not_implemented`
 * until the named issue lands (the README coverage table lists these).
 */
export type Availability = { status: 'implemented' } | { status: 'planned'; issue: string };

export interface OperationSchemas {
  /** Path parameters, e.g. `{ transactionId: uuid }`. */
  path?: z.ZodMiniObject;
  /** Query string parameters (values arrive as strings; int32 helpers coerce digit strings). */
  query?: z.ZodMiniObject;
  /** JSON body. Omitted means the operation takes no body (one sent anyway is ignored). */
  body?: z.ZodMiniType;
}

export interface OperationSpec {
  /** Stable camelCase id, also the handler's export name. */
  operationId: string;
  method: HttpMethod;
  /** Full path with `{param}` placeholders, e.g. `/api/v1/transactions/{transactionId}`. */
  path: string;
  access: Access;
  /** The spec marks it (IK): honours `Idempotency-Key`. */
  idempotent: boolean;
  group: LambdaGroup;
  summary: string;
  /**
   * The zod schemas, built on first use: a function serves every route but validates only its own
   * operations, so building all 116 at module init would only slow cold starts.
   */
  schemas: () => OperationSchemas;
  availability: Availability;
  /** True where the spec says "not shown" and the shape is this service's own design (see README). */
  designedHere?: boolean;
}
