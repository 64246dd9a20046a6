/**
 * What a tool call needs of its operation, as plain data: the route (method, path, path parameter names, whether it
 * takes a body), the Lambda group that serves it, and the tool definition `tools/list` shows. The local runtime
 * derives these from the registry at startup (lib/mcp/tools.ts `toolEntries`); the deployed MCP function gets them
 * as JSON written at synthesis (lib/mcp-endpoint.ts), so it bundles no operation module, zod schema or handler.
 */
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { HttpMethod, LambdaGroup } from '#api/types';
import type { ToolDefinition } from '#lib/mcp/tools';

/** The route of a tool's operation. */
export interface ToolRoute {
  operationId: string;
  method: HttpMethod;
  /** `/api/v1/...` with `{param}` placeholders. */
  path: string;
  group: LambdaGroup;
  /** Names of the path parameters: these arguments fill the path, the other scalar ones the query string. */
  pathNames: readonly string[];
  /** The operation takes a JSON body (the `body` argument). */
  hasBody: boolean;
}

/** One tool: its definition and its operation's route. */
export interface ToolEntry {
  tool: ToolDefinition;
  route: ToolRoute;
}

/** Arguments that are not parameters. */
export const RESERVED_ARGUMENTS: ReadonlySet<string> = new Set(['body', 'idempotencyKey']);
const RESERVED = RESERVED_ARGUMENTS;

const asString = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

/**
 * The API Gateway HTTP API event (payload 2.0) of a tool call: the route's path with the arguments filled in,
 * the other scalar arguments as the query string, `body` as the JSON body, `idempotencyKey` as `Idempotency-Key`.
 * @param bearer the caller's credential, passed on as `Authorization: Bearer …`
 */
export function routeCallEvent(route: ToolRoute, args: Record<string, unknown>, bearer: string, sourceIp = '127.0.0.1'): APIGatewayProxyEventV2 {
  const pathNames = new Set(route.pathNames);
  const pathParameters: Record<string, string> = {};
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(args)) {
    if (RESERVED.has(name) || value === undefined || value === null) continue;
    if (pathNames.has(name)) pathParameters[name] = asString(value);
    else query.set(name, asString(value));
  }
  const rawPath = route.path.replace(/\{(\w+)\}/g, (_, n: string) => encodeURIComponent(pathParameters[n] ?? ''));
  const headers: Record<string, string> = { authorization: `Bearer ${bearer}`, 'user-agent': 'mcp' };
  if (typeof args.idempotencyKey === 'string') headers['idempotency-key'] = args.idempotencyKey;
  const hasBody = route.hasBody && args.body !== undefined;
  if (hasBody) headers['content-type'] = 'application/json';
  const now = new Date();
  const routeKey = `${route.method} ${route.path}`;
  return {
    version: '2.0',
    routeKey,
    rawPath,
    rawQueryString: query.toString(),
    headers,
    queryStringParameters: query.size ? Object.fromEntries(query) : undefined,
    pathParameters: Object.keys(pathParameters).length ? pathParameters : undefined,
    requestContext: {
      accountId: 'mcp',
      apiId: 'mcp',
      domainName: 'mcp',
      domainPrefix: 'mcp',
      http: { method: route.method, path: rawPath, protocol: 'HTTP/1.1', sourceIp, userAgent: 'mcp' },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    body: hasBody ? JSON.stringify(args.body) : undefined,
    isBase64Encoded: false,
  };
}
