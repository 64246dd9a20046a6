/**
 * The one place an error becomes an HTTP response in the spec's envelope `{ error: { code, message, fields? } }`
 * (spec "Errors"). Domain errors (`shared/domain/errors.ts`) map to a status by `instanceof`; the few errors
 * only the request pipeline can raise (credential, scope, rate limit, route, not built) are `ApiError`s here.
 *
 * The statuses follow the spec's rule (spec "Endpoints"): "Error statuses per operation are 401, 403, 404 and
 * 429, plus 422 where a body or identifier is validated, plus 409 where marked (IK)". So a `Conflict` is a 409
 * only on an operation marked (IK); on any other it is a 422 `validation_error` whose `fields` name the clash
 * (issue 25: a duplicate contact email, a duplicate role name, a job applied already, a decided proposal, a
 * write to a workspace frozen for deletion).
 */
import { Conflict, Forbidden, InvalidInput, NotFound, Unavailable } from '#domain/errors';

/** Stable error codes clients branch on (spec "Errors"), plus 501 for operations not built yet and 503. */
export type ErrorCode =
  | 'unauthorized'
  | 'insufficient_scope'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'validation_error'
  | 'rate_limited'
  | 'internal_error'
  | 'not_implemented'
  | 'service_unavailable';

/** An error raised by the request pipeline itself, with its status, code and headers. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 401: missing, invalid, revoked or wrong-type credential. */
export class UnauthorizedError extends ApiError {
  constructor(message = 'Missing, invalid or revoked credential.') {
    super(401, 'unauthorized', message);
  }
}

/** 403 `insufficient_scope`: the credential lacks the operation's scope (`required`, e.g. `actions`). */
export class InsufficientScopeError extends ApiError {
  constructor(readonly required: string) {
    super(403, 'insufficient_scope', `This operation needs the '${required}' scope.`);
  }
}

/** 404 for a path no operation serves (API Gateway's `$default` route). */
export class RouteNotFoundError extends ApiError {
  constructor(method: string, path: string) {
    super(404, 'not_found', `No route for ${method} ${path}.`);
  }
}

/** 429 with `Retry-After: 60` (spec "Limits": fixed one-minute windows). */
export class RateLimitedError extends ApiError {
  constructor(bucket: 'read' | 'write') {
    super(429, 'rate_limited', `The ${bucket} rate limit of this key is exceeded; retry after the window resets.`, { 'Retry-After': '60' });
  }
}

/** 501 for an operation of the spec that is not built yet (docs/coverage.md). */
export class NotImplementedError extends ApiError {
  constructor(operationId: string, planned: string) {
    super(501, 'not_implemented', `Operation '${operationId}' is not implemented yet (${planned}).`);
  }
}

/** An API Gateway proxy result with a JSON body. */
export interface JsonResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

interface Mapped {
  statusCode: number;
  code: ErrorCode;
  message: string;
  fields?: Record<string, string>;
  headers?: Record<string, string>;
}

/** What the mapping needs of the operation that failed (undefined when no operation was resolved). */
export interface FailedOperation {
  /** Marked (IK) in the spec. */
  idempotent: boolean;
  /** Its path template, e.g. `/api/v1/proposals/{id}/approve`. */
  path: string;
}

/** `fields` of a clash on an operation not marked (IK): the conflict's own, else its first path identifier. */
function conflictFields(err: Conflict, op: FailedOperation): Record<string, string> {
  if (err.fields && Object.keys(err.fields).length) return err.fields;
  const param = /\{(\w+)\}/.exec(op.path)?.[1] ?? 'request';
  return { [param]: err.message };
}

/** Status and code of a thrown value, or undefined for an unexpected error (→ 500). */
function mapError(err: unknown, op?: FailedOperation): Mapped | undefined {
  if (err instanceof ApiError) return { statusCode: err.statusCode, code: err.code, message: err.message, headers: err.headers };
  if (err instanceof NotFound) return { statusCode: 404, code: 'not_found', message: err.message };
  if (err instanceof InvalidInput) return { statusCode: 422, code: 'validation_error', message: err.message, fields: err.fields };
  if (err instanceof Conflict) {
    if (op && !op.idempotent) return { statusCode: 422, code: 'validation_error', message: err.message, fields: conflictFields(err, op) };
    return { statusCode: 409, code: 'conflict', message: err.message };
  }
  if (err instanceof Forbidden) return { statusCode: 403, code: 'forbidden', message: err.message };
  if (err instanceof Unavailable) return { statusCode: 503, code: 'service_unavailable', message: err.message, headers: { 'Retry-After': '5' } };
  return undefined;
}

/** True when `err` maps to a deliberate 4xx/5xx response (not an unexpected failure). */
export const isExpectedError = (err: unknown): boolean => mapError(err) !== undefined;

/**
 * Maps any thrown value to the envelope. Known errors keep their status, code and fields; anything else is a
 * 500 `internal_error` whose message reveals nothing internal but the request id (the caller logs the original).
 * @param op the operation that failed, which decides whether a `Conflict` is a 409 (marked (IK)) or a 422
 */
export function toErrorResponse(err: unknown, requestId?: string, op?: FailedOperation): JsonResponse {
  const mapped = mapError(err, op);
  if (mapped) {
    const error: Record<string, unknown> = { code: mapped.code, message: mapped.message };
    if (mapped.fields) error.fields = mapped.fields;
    return { statusCode: mapped.statusCode, headers: { 'content-type': 'application/json', ...mapped.headers }, body: JSON.stringify({ error }) };
  }
  const suffix = requestId ? ` Reference: ${requestId}.` : '';
  return {
    statusCode: 500,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ error: { code: 'internal_error', message: `An unexpected error occurred.${suffix}` } }),
  };
}
