/**
 * API errors and the spec's error envelope `{ error: { code, message, fields? } }` (spec "Errors").
 * Domain code throws these; `toErrorResponse` is the one place an error becomes an HTTP response.
 */

/** Stable error codes clients branch on (spec "Errors"), plus 501 for operations not built yet. */
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

export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class UnauthorizedError extends ApiError {
  constructor(message = 'Missing, invalid or revoked credential.') {
    super(401, 'unauthorized', message);
  }
}

export class InsufficientScopeError extends ApiError {
  constructor(required: string) {
    super(403, 'insufficient_scope', `This operation needs the '${required}' scope.`);
  }
}

/** 403 `forbidden`: the credential has the scope, but the rule is about who acts (e.g. a comment's author). */
export class ForbiddenError extends ApiError {
  constructor(message: string) {
    super(403, 'forbidden', message);
  }
}

/** 404 for absent resources and, identically, for another organization's (spec "Tenant isolation"). */
export class NotFoundError extends ApiError {
  constructor(what = 'Resource') {
    super(404, 'not_found', `${what} not found.`);
  }
}

export class ConflictError extends ApiError {
  constructor(message: string) {
    super(409, 'conflict', message);
  }
}

/** 422 with `fields` mapping each offending field (dotted path) to a message. */
export class ValidationError extends ApiError {
  constructor(fields: Record<string, string>, message = 'The request is invalid.') {
    super(422, 'validation_error', message, fields);
  }
}

/** 429 with `Retry-After: 60` (spec "Limits": fixed one-minute windows). */
export class RateLimitedError extends ApiError {
  constructor(bucket: 'read' | 'write') {
    super(429, 'rate_limited', `The ${bucket} rate limit of this key is exceeded; retry after the window resets.`, undefined, {
      'Retry-After': '60',
    });
  }
}

export class NotImplementedError extends ApiError {
  constructor(operationId: string, issue: string) {
    super(501, 'not_implemented', `Operation '${operationId}' is not implemented yet (${issue}).`);
  }
}

/** An API Gateway proxy result with a JSON body. */
export interface JsonResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Maps any thrown value to the envelope. ApiError keeps its status, code and fields; anything else is a
 * 500 `internal_error` whose message reveals nothing internal (the caller logs the original).
 */
export function toErrorResponse(err: unknown, requestId?: string): JsonResponse {
  if (err instanceof ApiError) {
    const error: Record<string, unknown> = { code: err.code, message: err.message };
    if (err.fields) error.fields = err.fields;
    return {
      statusCode: err.statusCode,
      headers: { 'content-type': 'application/json', ...err.headers },
      body: JSON.stringify({ error }),
    };
  }
  const suffix = requestId ? ` Reference: ${requestId}.` : '';
  return {
    statusCode: 500,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ error: { code: 'internal_error', message: `An unexpected error occurred.${suffix}` } }),
  };
}
