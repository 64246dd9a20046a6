/**
 * MCP tools derived from the operations registry: one tool per implemented operation, named by its
 * operationId, titled by its short name (`titleOf`), described by its summary, with an input schema made from its zod path, query and body schemas
 * (path and query parameters as top-level arguments, the JSON body as `body`, and `idempotencyKey` on (IK)
 * operations). A call becomes the API Gateway event the operation's route would receive, so it runs through
 * the same pipeline as an HTTP request (authentication, scope, rate limit, validation, idempotency).
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { RESERVED_ARGUMENTS, routeCallEvent, type ToolEntry, type ToolRoute } from '#lib/mcp/tool-route';
import { isImplemented, schemasOf, titleOf, type RegisteredOperation } from '#api/operation';
import { isOptionalBody, toJsonSchema, type JsonSchema } from '#lib/openapi/json-schema';

/** An MCP tool definition (`tools/list`). */
export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  /** Self-contained: a shared schema (the recursive JSON value) is in its `$defs`, never a dangling OpenAPI `$ref`. */
  inputSchema: { type: 'object'; properties: Record<string, JsonSchema>; required?: string[]; $defs?: Record<string, JsonSchema> };
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
}

const RESERVED = RESERVED_ARGUMENTS;

/** Points `#/components/schemas/<name>` references at the tool schema's own `#/$defs/<name>`. */
function localRefs<T>(node: T): T {
  if (Array.isArray(node)) return node.map(localRefs) as T;
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? v.replace('#/components/schemas/', '#/$defs/') : localRefs(v)]),
  ) as T;
}

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
    title: titleOf(op),
    description: `${op.summary} (${op.method} ${op.path}; scope: ${op.access}${op.idempotent ? '; honours Idempotency-Key' : ''})`,
    inputSchema: localRefs({ type: 'object' as const, properties, ...(required.length ? { required } : {}), ...(Object.keys(scratch).length ? { $defs: scratch } : {}) }),
    annotations: { readOnlyHint: read, destructiveHint: op.method === 'DELETE' || /delete|remove|revoke/i.test(op.operationId), idempotentHint: read || op.method === 'PUT' || op.idempotent, openWorldHint: !read },
  };
}

/** The operations exposed as tools: the implemented ones. */
export const toolOperations = (ops: readonly RegisteredOperation[]): RegisteredOperation[] => ops.filter(isImplemented);

/** The route of an operation's tool (lib/mcp/tool-route.ts). */
export function toolRouteOf(op: RegisteredOperation): ToolRoute {
  const s = schemasOf(op);
  return { operationId: op.operationId, method: op.method, path: op.path, group: op.group, pathNames: Object.keys((s.path as { shape?: object } | undefined)?.shape ?? {}), hasBody: s.body !== undefined };
}

/** Every tool of the registry with its route: what the MCP endpoint serves (and what synthesis writes for the deployed one). */
export const toolEntries = (ops: readonly RegisteredOperation[]): ToolEntry[] => toolOperations(ops).map((op) => ({ tool: toolOf(op), route: toolRouteOf(op) }));

/**
 * The API Gateway HTTP API event (payload 2.0) of a tool call (lib/mcp/tool-route.ts `routeCallEvent`).
 * @param bearer the caller's credential, passed on as `Authorization: Bearer …`
 */
export const toolCallEvent = (op: RegisteredOperation, args: Record<string, unknown>, bearer: string, sourceIp = '127.0.0.1'): APIGatewayProxyEventV2 =>
  routeCallEvent(toolRouteOf(op), args, bearer, sourceIp);
