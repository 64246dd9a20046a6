/**
 * MCP tools derived from the operations registry: one tool per implemented operation, named by its
 * operationId, described by its summary, with an input schema made from its zod path, query and body schemas
 * (path and query parameters as top-level arguments, the JSON body as `body`, and `idempotencyKey` on (IK)
 * operations). A call becomes the API Gateway event the operation's route would receive, so it runs through
 * the same pipeline as an HTTP request (authentication, scope, rate limit, validation, idempotency).
 */
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { isImplemented, routeKeyOf, schemasOf, type RegisteredOperation } from '#api/operation';
import { isOptionalBody, toJsonSchema, type JsonSchema } from '#lib/openapi/json-schema';

/** An MCP tool definition (`tools/list`). */
export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, JsonSchema>; required?: string[] };
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
}

const RESERVED = new Set(['body', 'idempotencyKey']);

/**
 * The tool of an implemented operation.
 * @throws Error when a path or query parameter is named like another argument (`body`, `idempotencyKey`, or a
 *   parameter of both path and query): a wiring mistake caught at startup and in tests
 */
export function toolOf(op: RegisteredOperation): ToolDefinition {
  const s = schemasOf(op);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const scratch: Record<string, JsonSchema> = {};
  for (const where of ['path', 'query'] as const) {
    const schema = s[where];
    if (!schema) continue;
    const json = toJsonSchema(schema, 'input', scratch) as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, prop] of Object.entries(json.properties ?? {})) {
      if (RESERVED.has(name) || name in properties) throw new Error(`${op.operationId}: argument ${name} is ambiguous`);
      properties[name] = { ...prop, description: `${where === 'path' ? 'Path' : 'Query'} parameter.` };
      if (where === 'path' || json.required?.includes(name)) required.push(name);
    }
  }
  if (s.body) {
    properties.body = { ...toJsonSchema(s.body, 'input', scratch), description: 'The JSON request body.' };
    if (!isOptionalBody(s.body)) required.push('body');
  }
  if (op.idempotent) {
    properties.idempotencyKey = { type: 'string', minLength: 1, maxLength: 200, description: 'Idempotency-Key: a retry with the same key replays the first response and does not repeat the side effect.' };
  }
  const read = op.method === 'GET';
  return {
    name: op.operationId,
    title: op.summary.length > 80 ? `${op.summary.slice(0, 77)}...` : op.summary,
    description: `${op.summary} (${op.method} ${op.path}; scope: ${op.access}${op.idempotent ? '; honours Idempotency-Key' : ''})`,
    inputSchema: { type: 'object', properties, ...(required.length ? { required } : {}) },
    annotations: { readOnlyHint: read, destructiveHint: op.method === 'DELETE' || /delete|remove|revoke/i.test(op.operationId), idempotentHint: read || op.method === 'PUT' || op.idempotent, openWorldHint: !read },
  };
}

/** The operations exposed as tools: the implemented ones. */
export const toolOperations = (ops: readonly RegisteredOperation[]): RegisteredOperation[] => ops.filter(isImplemented);

const asString = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

/**
 * The API Gateway HTTP API event (payload 2.0) of a tool call: the route's path with the arguments filled in,
 * the other scalar arguments as the query string, `body` as the JSON body.
 * @param bearer the caller's credential, passed on as `Authorization: Bearer …`
 */
export function toolCallEvent(op: RegisteredOperation, args: Record<string, unknown>, bearer: string, sourceIp = '127.0.0.1'): APIGatewayProxyEventV2 {
  const s = schemasOf(op);
  const pathNames = new Set(Object.keys((s.path as { shape?: object } | undefined)?.shape ?? {}));
  const pathParameters: Record<string, string> = {};
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(args)) {
    if (RESERVED.has(name) || value === undefined || value === null) continue;
    if (pathNames.has(name)) pathParameters[name] = asString(value);
    else query.set(name, asString(value));
  }
  const rawPath = op.path.replace(/\{(\w+)\}/g, (_, n: string) => encodeURIComponent(pathParameters[n] ?? ''));
  const headers: Record<string, string> = { authorization: `Bearer ${bearer}`, 'user-agent': 'mcp' };
  if (typeof args.idempotencyKey === 'string') headers['idempotency-key'] = args.idempotencyKey;
  const hasBody = s.body !== undefined && args.body !== undefined;
  if (hasBody) headers['content-type'] = 'application/json';
  const now = new Date();
  const requestId = randomUUID();
  const queryStringParameters = Object.fromEntries(query);
  return {
    version: '2.0',
    routeKey: routeKeyOf(op),
    rawPath,
    rawQueryString: query.toString(),
    headers,
    queryStringParameters: query.size ? queryStringParameters : undefined,
    pathParameters: Object.keys(pathParameters).length ? pathParameters : undefined,
    requestContext: {
      accountId: 'mcp',
      apiId: 'mcp',
      domainName: 'mcp',
      domainPrefix: 'mcp',
      http: { method: op.method, path: rawPath, protocol: 'HTTP/1.1', sourceIp, userAgent: 'mcp' },
      requestId,
      routeKey: routeKeyOf(op),
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    body: hasBody ? JSON.stringify(args.body) : undefined,
    isBase64Encoded: false,
  };
}
