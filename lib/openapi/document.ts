/**
 * The OpenAPI 3.1 document of `/api/v1`, derived from the operations registry: one path item per route, the
 * operation's id, short summary (`titleOf`) and description (its one-line summary), tag (its group), security and
 * scope, parameters and request body from its zod input schemas with the module's `example` request, its 200
 * body from its response schema, and the error responses the spec lists for it (spec
 * "Endpoints" conventions: 401, 403, 404, 429; 422 where input is validated; 409 where marked (IK); 501 while
 * planned). `npm run openapi` writes it to docs/openapi.json.
 */
import { isImplemented, responseOf, schemasOf, titleOf, type RegisteredOperation } from '#api/operation';
import { API_VERSION } from '#functions/meta/get-health';
import { ERROR_RESPONSES, sharedComponents, type ErrorStatus } from '#lib/openapi/components';
import { isOptionalBody, toJsonSchema, type JsonSchema } from '#lib/openapi/json-schema';

/** An OpenAPI document (the parts this module writes are typed loosely: it is serialized as JSON). */
export type OpenApiDocument = Record<string, any>;

/** The spec's conventions: which error statuses an operation answers, besides the `default` envelope. */
export function errorStatusesOf(op: RegisteredOperation): ErrorStatus[] {
  const s = schemasOf(op);
  const statuses: ErrorStatus[] = ['401', '403', '404'];
  if (op.idempotent) statuses.push('409');
  if (s.path || s.query || s.body || op.idempotent) statuses.push('422');
  statuses.push('429');
  if (!isImplemented(op)) statuses.push('501');
  return statuses;
}

const typesOf = (schema: JsonSchema): unknown[] => [schema.type, ...((schema.anyOf ?? []) as JsonSchema[]).map((b) => b.type)];

/**
 * A query example as the parameter's schema types it: the module's example is a request as sent, where a query
 * value is a string (`'10'`, `'true'`); the reference shows `10` and `true` where the schema says integer or boolean.
 */
function exampleValue(value: unknown, schema: JsonSchema): unknown {
  if (typeof value !== 'string') return value;
  const types = typesOf(schema);
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  if (types.includes('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

function parametersOf(op: RegisteredOperation, components: Record<string, JsonSchema>): unknown[] {
  const s = schemasOf(op);
  const params: unknown[] = [];
  for (const where of ['path', 'query'] as const) {
    const schema = s[where];
    if (!schema) continue;
    type Props = { properties?: Record<string, JsonSchema>; required?: string[] };
    const json = toJsonSchema(schema, 'input', components) as Props;
    // The value's own type and bounds (`integer`, 1..100) rather than what the wire form accepts (a number or a
    // digit string): a client's generated type and the reference's sample read better. A transform's output is
    // unrepresentable (`{}`): its input form stands.
    const parsed = toJsonSchema(schema, 'output', components) as Props;
    const examples = (where === 'query' ? (op.example?.query ?? {}) : {}) as Record<string, unknown>;
    for (const [name, input] of Object.entries(json.properties ?? {})) {
      const output = parsed.properties?.[name];
      const prop = output && Object.keys(output).some((k) => k !== 'default') ? output : input;
      const example = name in examples ? exampleValue(examples[name], prop) : undefined;
      params.push({ name, in: where, required: where === 'path' || (json.required ?? []).includes(name), schema: prop, ...(example !== undefined ? { example } : {}) });
    }
  }
  if (op.idempotent) params.push({ $ref: '#/components/parameters/IdempotencyKey' });
  return params;
}

function securityOf(op: RegisteredOperation): Record<string, string[]>[] {
  if (op.access === 'partner') return [{ partnerKey: [] }];
  // OpenAPI 3.1 §4.8.30: a non-OAuth scheme may list the roles it needs too; here the key's scope.
  return [{ orgApiKey: [op.access] }, { oauth2: [op.access] }];
}

function operationObject(op: RegisteredOperation, components: Record<string, JsonSchema>): Record<string, unknown> {
  const s = schemasOf(op);
  const response = responseOf(op);
  const success: Record<string, unknown> = {
    description: isImplemented(op) ? (op.responseDescription ?? op.summary) : `Planned (${op.planned}): answers 501 until built.${response ? ' The success body the spec shows:' : ''}`,
  };
  if (response) success.content = { 'application/json': { schema: toJsonSchema(response, 'output', components) } };
  if (op.idempotent) success.headers = { 'Idempotency-Replayed': { $ref: '#/components/headers/Idempotency-Replayed' } };
  const responses: Record<string, unknown> = { '200': success };
  for (const status of errorStatusesOf(op)) responses[status] = { $ref: `#/components/responses/${ERROR_RESPONSES[status].name}` };
  responses.default = { $ref: '#/components/responses/Error' };
  const out: Record<string, unknown> = {
    operationId: op.operationId,
    summary: titleOf(op),
    description: op.designedHere ? `${op.summary}\n\nThe spec does not show this shape; it is this service's own design (docs/design-choices.md).` : op.summary,
    tags: [op.group],
    security: securityOf(op),
    'x-scope': op.access,
    'x-idempotent': op.idempotent,
    ...(op.planned && !isImplemented(op) ? { 'x-planned': op.planned } : {}),
  };
  const parameters = parametersOf(op, components);
  if (parameters.length) out.parameters = parameters;
  if (s.body) {
    const example = op.example?.body;
    out.requestBody = {
      required: !isOptionalBody(s.body),
      content: { 'application/json': { schema: toJsonSchema(s.body, 'input', components), ...(example !== undefined ? { example } : {}) } },
    };
  }
  out.responses = responses;
  return out;
}

/**
 * Builds the document.
 * @param ops the registry's operations, in registry order
 * @param serverUrl the base URL in `servers` (paths carry `/api/v1`)
 * @throws Error when two resource schemas claim one component name
 */
export function buildOpenApi(ops: readonly RegisteredOperation[], serverUrl = 'http://127.0.0.1:3000'): OpenApiDocument {
  const components = sharedComponents();
  const schemas = components.schemas as Record<string, JsonSchema>;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of ops) {
    (paths[op.path] ??= {})[op.method.toLowerCase()] = operationObject(op, schemas);
  }
  const groups = [...new Set(ops.map((op) => op.group))];
  return {
    openapi: '3.1.1',
    info: {
      title: 'Transaction-Coordination Service API',
      version: API_VERSION,
      description:
        'Residential real-estate transaction coordination: deals, key dates, tasks, documents and contract extraction, contacts, messaging, webhooks. ' +
        'Every request carries `Authorization: Bearer <key or token>`; every 4xx/5xx body is `{ error: { code, message, fields? } }`. ' +
        'Fields may be added to responses at any time: ignore unknown ones. Generated from the operations registry (`npm run openapi`).',
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: '{baseUrl}', variables: { baseUrl: { default: serverUrl, description: 'The deployment\'s base URL (the local runtime: http://127.0.0.1:3000).' } } }],
    tags: groups.map((name) => ({ name })),
    paths,
    components: { ...components, schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => (a === 'Error' ? -1 : b === 'Error' ? 1 : a.localeCompare(b)))) },
  };
}
