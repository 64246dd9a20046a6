/**
 * The MCP endpoint (Model Context Protocol, `@modelcontextprotocol/sdk` 1.x) over Streamable HTTP, stateless: each
 * HTTP request gets a fresh server and transport (no session), so it runs the same on one machine, behind a load
 * balancer or in a Lambda function. It works on plain tool entries (lib/mcp/tool-route.ts), so the deployed function
 * needs no registry: a call is dispatched through the API's own pipeline with the caller's bearer credential, so
 * authentication, scopes, rate limits, validation, idempotency and the error envelope are those of the HTTP API.
 * `tools/list` shows only the operations the credential can call (from `GET /api/v1/catalog`, read with it).
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { routeCallEvent, type ToolEntry, type ToolRoute } from '#lib/mcp/tool-route';

/** The path the MCP endpoint is served at, locally and deployed (the `mcp_at_` keys name it). */
export const MCP_PATH = '/mcp';

/** Runs an API event through the route's group handler (locally), or through the deployed API. */
export type Dispatch = (route: ToolRoute, event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyStructuredResultV2>;

/** What the endpoint needs: its tools and how to run one. */
export interface McpEndpointProps {
  tools: readonly ToolEntry[];
  dispatch: Dispatch;
  /** The server's version in `initialize`. */
  version: string;
}

/** `Authorization: Bearer <token>` → the token (as shared/http/middleware/authenticate.ts `bearerOf`, without its module's weight). */
const bearerOf = (header: string | null): string | undefined => (header ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined);

/**
 * 401 with the RFC 9728 challenge: `resource_metadata` names this endpoint's protected-resource metadata, from which
 * an MCP client finds the authorization server (MCP authorization, 2025-06-18).
 */
const unauthorized = (message: string, origin: string) =>
  new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message }, id: null }), {
    status: 401,
    headers: { 'content-type': 'application/json', 'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource${MCP_PATH}"` },
  });

function buildServer(props: McpEndpointProps, tools: Map<string, ToolEntry>, bearer: string): Server {
  const server = new Server({ name: 'transaction-coordination-service', version: props.version }, { capabilities: { tools: {} } });
  const catalog = tools.get('getCatalog')?.route;
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    if (!catalog) return { tools: [...tools.values()].map((t) => t.tool) };
    const res = await props.dispatch(catalog, routeCallEvent(catalog, {}, bearer));
    const body = JSON.parse(res.body ?? '{}') as { data?: { operation: string; callable: boolean }[]; error?: { code: string; message: string } };
    if ((res.statusCode ?? 200) !== 200 || !body.data) throw new McpError(ErrorCode.InvalidRequest, `${body.error?.code ?? 'error'}: ${body.error?.message ?? 'the credential cannot list tools'}`);
    const callable = new Set(body.data.filter((e) => e.callable).map((e) => e.operation));
    return { tools: [...tools.values()].filter((t) => callable.has(t.route.operationId)).map((t) => t.tool) };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const entry = tools.get(request.params.name);
    if (!entry) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${request.params.name}`);
    const res = await props.dispatch(entry.route, routeCallEvent(entry.route, request.params.arguments ?? {}, bearer));
    const status = res.statusCode ?? 200;
    const text = res.body ?? '';
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return {
      content: [{ type: 'text' as const, text }],
      ...(parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? { structuredContent: parsed as Record<string, unknown> } : {}),
      ...(status >= 400 ? { isError: true } : {}),
      _meta: { httpStatus: status, ...(res.headers?.['Idempotency-Replayed'] || res.headers?.['idempotency-replayed'] ? { idempotencyReplayed: true } : {}) },
    };
  });
  return server;
}

/**
 * A web-standard handler of the MCP endpoint (`Request` in, `Response` out): 401 without a bearer credential;
 * otherwise one stateless Streamable HTTP exchange (JSON responses, no SSE stream kept open).
 */
export function mcpEndpoint(props: McpEndpointProps): (req: Request) => Promise<Response> {
  const tools = new Map(props.tools.map((t) => [t.tool.name, t]));
  return async (req) => {
    const bearer = bearerOf(req.headers.get('authorization'));
    if (!bearer) return unauthorized('Missing bearer credential: send an organization API key (mcp_at_...) or an OAuth access token as Authorization: Bearer ...', new URL(req.url).origin);
    const server = buildServer(props, tools, bearer);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(req);
    } finally {
      void transport.close();
      void server.close();
    }
  };
}
