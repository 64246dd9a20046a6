/**
 * The parts of the OpenAPI document every operation shares: the error envelope and its responses (spec
 * "Errors"), the rate-limit and idempotency headers (spec "Limits", "Errors"), and the security schemes of the
 * three credential types (spec "Authentication").
 */
import type { JsonSchema } from '#lib/openapi/json-schema';

/** Status → the spec's condition and code(s) (plus this service's 501 for planned operations). */
export const ERROR_RESPONSES = {
  '401': { name: 'Unauthorized', codes: ['unauthorized'], text: 'Missing, invalid, revoked or wrong-type credential.' },
  '403': { name: 'Forbidden', codes: ['insufficient_scope', 'forbidden'], text: 'The credential lacks the operation\'s scope (`insufficient_scope`), or the caller may not do this (`forbidden`, e.g. owner-only).' },
  '404': { name: 'NotFound', codes: ['not_found'], text: 'Absent, or another organization\'s (never 403 for that).' },
  '409': { name: 'Conflict', codes: ['conflict'], text: 'Operations marked (IK) only: a concurrent duplicate of an `Idempotency-Key` request still in flight, or a clash with the current state (e.g. a suppressed address, an opted-out number).' },
  '422': { name: 'ValidationError', codes: ['validation_error'], text: 'Invalid body, query or identifier (`fields` maps each to a message; a body field the operation does not define is named too). On an operation not marked (IK), also a clash with the current state, with `fields` naming it (e.g. an email another contact has). Also an `Idempotency-Key` reused for another operation.' },
  '429': { name: 'RateLimited', codes: ['rate_limited'], text: 'A rate-limit bucket is exceeded (300 reads / 60 writes per key per minute, fixed window); retry after `Retry-After` seconds.' },
  '501': { name: 'NotImplemented', codes: ['not_implemented'], text: 'The operation is part of the spec but not built yet (README coverage table).' },
} as const;

export type ErrorStatus = keyof typeof ERROR_RESPONSES;

/** `{ error: { code, message, fields? } }`. */
const errorEnvelope: JsonSchema = {
  type: 'object',
  description: 'Every 4xx and 5xx body. Clients branch on `code` (stable), never on `message`.',
  properties: {
    error: {
      type: 'object',
      properties: {
        code: { type: 'string', description: 'Stable error code.' },
        message: { type: 'string', minLength: 1 },
        fields: { type: 'object', description: 'Validation errors only: field → message.', additionalProperties: { type: 'string', minLength: 1 } },
      },
      required: ['code', 'message'],
      additionalProperties: false,
    },
  },
  required: ['error'],
  additionalProperties: false,
};

const retryAfter = { description: 'Seconds until the rate-limit window resets (60).', schema: { type: 'integer', minimum: 0 } };

function errorResponse(status: ErrorStatus): Record<string, unknown> {
  const { codes, text } = ERROR_RESPONSES[status];
  const schema = {
    allOf: [
      { $ref: '#/components/schemas/Error' },
      { type: 'object', properties: { error: { type: 'object', properties: { code: { enum: [...codes] } } } } },
    ],
  };
  return {
    description: text,
    ...(status === '429' ? { headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } } : {}),
    content: { 'application/json': { schema } },
  };
}

/** `components` of the document, `schemas` to be completed with the resources the operations use. */
export function sharedComponents(): Record<string, Record<string, unknown>> {
  return {
    schemas: { Error: errorEnvelope },
    responses: {
      ...Object.fromEntries((Object.keys(ERROR_RESPONSES) as ErrorStatus[]).map((s) => [ERROR_RESPONSES[s].name, errorResponse(s)])),
      Error: { description: 'Any other error (500 `internal_error`, 503 `service_unavailable`, …) in the same envelope.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
    },
    parameters: {
      IdempotencyKey: {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description: 'Makes a retry safe: the first request executes and its response is stored 24 h; an identical retry replays it with `Idempotency-Replayed: true`. Reusing it for another operation is 422; a duplicate still in flight is 409.',
        schema: { type: 'string', minLength: 1, maxLength: 200 },
      },
    },
    headers: {
      'Retry-After': retryAfter,
      'Idempotency-Replayed': { description: '`true` when this is the stored response of an earlier request with the same `Idempotency-Key`.', schema: { type: 'string', enum: ['true'] } },
    },
    securitySchemes: {
      orgApiKey: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'mcp_at_…',
        description: 'Organization API key (`Authorization: Bearer mcp_at_…`): acts within exactly one organization, with the scopes it was created with (read, draft, actions). Rejected on `/api/v1/orgs/*`.',
      },
      oauth2: {
        type: 'oauth2',
        description: 'OAuth 2.1 access token (JWT, organization from its `org_id` claim), same operations and scopes as an organization key. Authorization code with PKCE (S256) only; public clients (no secret); discovery at `/.well-known/oauth-authorization-server`. Refresh tokens rotate on every use; a reused one revokes every token of that user and client.',
        flows: {
          authorizationCode: {
            authorizationUrl: '/oauth/authorize',
            tokenUrl: '/oauth/token',
            refreshUrl: '/oauth/token',
            scopes: { read: 'GET operations', draft: 'Low-risk writes (completing a task, saving a status summary)', actions: 'Side-effecting writes (sending, deleting, sharing, provisioning)' },
          },
        },
      },
      partnerKey: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'rsk_…',
        description: 'Partner (reseller) key (`Authorization: Bearer rsk_…`): only `/api/v1/orgs/*`, rejected everywhere else.',
      },
    },
  };
}
