/**
 * Checks an HTTP response of the API against the OpenAPI document generated from the registry
 * (lib/openapi/document.ts): the status must be one the operation documents, and the JSON body must match that
 * response's schema. The document lists per operation exactly the error statuses the spec's rule gives it
 * (lib/openapi/document.ts `errorStatusesOf`, test/unit/openapi-document.test.ts), so a 4xx it does not list (a
 * 409 on an operation not marked (IK), a 422 on one that validates nothing) fails here; only a 5xx falls to
 * `default`, the error envelope. The check is stricter
 * than the published document: an object documented with `properties` may not carry an undocumented field, so
 * a field a handler adds without documenting it fails the tests. Used by every end-to-end HTTP helper
 * (test/support/http-client.ts, webhook-receiver.ts), so every e2e response is checked.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { RegisteredOperation } from '#api/operation';
import { loadOperations } from '#lib/registry';
import { buildOpenApi, type OpenApiDocument } from '#lib/openapi/document';
import { createRouter, type Router } from '#lib/local/router';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

interface Checker {
  doc: OpenApiDocument;
  route: Router<RegisteredOperation>;
  ajv: Ajv2020;
  compiled: Map<string, ValidateFunction>;
}

let loading: Promise<Checker> | undefined;

/** Adds `additionalProperties: false` to every object schema that lists `properties` and says nothing else (not inside `allOf`, whose parts each see only some properties). */
export function strictCopy(node: unknown, inComposition = false): unknown {
  if (Array.isArray(node)) return node.map((n) => strictCopy(n, inComposition));
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = strictCopy(v, inComposition || k === 'allOf');
  if (!inComposition && out.properties && typeof out.properties === 'object' && !('additionalProperties' in out) && !('$ref' in out)) {
    out.additionalProperties = false;
  }
  return out;
}

function checker(): Promise<Checker> {
  loading ??= loadOperations().then((ops) => {
    const doc = buildOpenApi(ops);
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'openapi', components: { schemas: strictCopy(doc.components.schemas) } });
    return { doc, route: createRouter(ops), ajv, compiled: new Map() };
  });
  return loading;
}

/** What the check needs of a response. */
export interface CheckedResponse {
  method: string;
  /** Path, with or without a query string. */
  path: string;
  status: number;
  headers: Headers;
  text: string;
}

/**
 * The problems of a response against the document, or an empty list when it conforms. Responses of paths
 * outside `/api/` (public links, the reference page, MCP) are not the API's and are not checked.
 */
export async function responseProblems(r: CheckedResponse): Promise<string[]> {
  const pathname = new URL(r.path, 'http://x').pathname;
  if (!pathname.startsWith('/api/')) return [];
  const c = await checker();
  const match = c.route(r.method.toUpperCase(), pathname);
  const responses: Record<string, any> = match
    ? c.doc.paths[match.op.path][match.op.method.toLowerCase()].responses
    : { default: { $ref: '#/components/responses/Error' } };
  let key = String(r.status);
  if (!responses[key]) {
    if (r.status < 400) return [`status ${r.status} is not documented for ${match?.op.operationId ?? 'this path'}`];
    // Spec "Endpoints": 401, 403, 404, 429, plus 422 where input is validated, plus 409 where marked (IK).
    if (match && r.status < 500) return [`status ${r.status} is not one the spec gives ${match.op.operationId} (${Object.keys(responses).filter((s) => s !== 'default').join(', ')})`];
    key = 'default';
  }
  let response = responses[key];
  if (response.$ref) response = c.doc.components.responses[response.$ref.split('/').pop()];
  const schema = response.content?.['application/json']?.schema;
  const problems: string[] = [];
  if (r.status === 429 && !r.headers.get('retry-after')) problems.push('429 without Retry-After');
  if (!schema) {
    if (r.status === 200 && match && match.op.handler) problems.push(`${match.op.operationId} documents no 200 body`);
    return problems;
  }
  if (!/^application\/json/.test(r.headers.get('content-type') ?? '')) return [...problems, `content-type ${r.headers.get('content-type')}`];
  let body: unknown;
  try {
    body = JSON.parse(r.text);
  } catch {
    return [...problems, 'body is not JSON'];
  }
  const cacheKey = match ? `${match.op.operationId} ${key}` : `none ${key}`;
  let validate = c.compiled.get(cacheKey);
  if (!validate) {
    validate = c.ajv.compile({ allOf: [rebase(strictCopy(schema))] });
    c.compiled.set(cacheKey, validate);
  }
  if (!validate(body)) {
    for (const e of validate.errors ?? []) problems.push(`${e.instancePath || '/'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`);
  }
  return problems;
}

/** Points `#/components/...` references at the registered `openapi` schema. */
function rebase(node: unknown): any {
  if (Array.isArray(node)) return node.map(rebase);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#/components/') ? `openapi${v}` : rebase(v)]));
}

/**
 * Throws when the response does not conform (so the e2e test making the call fails at the call).
 * @throws Error listing the operation, status and every schema violation (first 10)
 */
export async function assertConforms(r: CheckedResponse): Promise<void> {
  const problems = await responseProblems(r);
  if (problems.length) {
    throw new Error(`${r.method} ${r.path} → ${r.status} does not match docs/openapi.json:\n  ${problems.slice(0, 10).join('\n  ')}\n  body: ${r.text.slice(0, 500)}`);
  }
}
