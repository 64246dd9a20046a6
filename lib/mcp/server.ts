/**
 * The MCP server (Model Context Protocol, `@modelcontextprotocol/sdk` 1.x) over Streamable HTTP, stateless: each
 * HTTP request gets a fresh server and transport (no session), so it runs the same on one machine or behind a
 * load balancer. Tools are the implemented operations (lib/mcp/tools.ts); a call is dispatched through the
 * API's own pipeline with the caller's bearer credential, so authentication, scopes, rate limits, validation,
 * idempotency and the error envelope are those of the HTTP API. `tools/list` shows only the operations the
 * credential can call (from `GET /api/v1/catalog`, read with that credential).
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { RegisteredOperation } from '#api/operation';
import { bearerOf } from '#http/middleware/authenticate';
import { toolCallEvent, toolOf, toolOperations, type ToolDefinition } from '#lib/mcp/tools';

/** The path the MCP endpoint is served at. */
export const MCP_PATH = '/mcp';

/** Runs an API event through the operation's group handler (locally or in the deployed function). */
export type Dispatch = (op: RegisteredOperation, event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyStructuredResultV2>;

/** What the endpoint needs: the registry's operations and how to run one. */
export interface McpEndpointOptions {
  ops: readonly RegisteredOperation[];
  dispatch: Dispatch;
  /** The server's name and version in `initialize`. */
  version: string;
}

/**
 * 401 with the RFC 9728 challenge: `resource_metadata` names this endpoint's protected-resource metadata, from which
 * an MCP client finds the authorization server (MCP authorization, 2025-06-18).
 */
const unauthorized = (message: string, origin: string) =>
  new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message }, id: null }), {
    status: 401,
    headers: { 'content-type': 'application/json', 'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource${MCP_PATH}"` },
  });

function buildServer(opts: McpEndpointOptions, tools: Map<string, { op: RegisteredOperation; tool: ToolDefinition }>, bearer: string): Server {
  const server = new Server({ name: 'transaction-coordination-service', version: opts.version }, { capabilities: { tools: {} } });
  const catalogOp = opts.ops.find((op) => op.operationId === 'getCatalog');
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    if (!catalogOp) return { tools: [...tools.values()].map((t) => t.tool) };
    const res = await opts.dispatch(catalogOp, toolCallEvent(catalogOp, {}, bearer));
    const body = JSON.parse(res.body ?? '{}') as { data?: { operation: string; callable: boolean }[]; error?: { code: string; message: string } };
    if ((res.statusCode ?? 200) !== 200 || !body.data) throw new McpError(ErrorCode.InvalidRequest, `${body.error?.code ?? 'error'}: ${body.error?.message ?? 'the credential cannot list tools'}`);
    const callable = new Set(body.data.filter((e) => e.callable).map((e) => e.operation));
    return { tools: [...tools.values()].filter((t) => callable.has(t.op.operationId)).map((t) => t.tool) };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const entry = tools.get(request.params.name);
    if (!entry) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${request.params.name}`);
    const res = await opts.dispatch(entry.op, toolCallEvent(entry.op, request.params.arguments ?? {}, bearer));
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
export function mcpHandler(opts: McpEndpointOptions): (req: Request) => Promise<Response> {
  const tools = new Map(toolOperations(opts.ops).map((op) => [op.operationId, { op, tool: toolOf(op) }]));
  return async (req) => {
    const bearer = bearerOf({ authorization: req.headers.get('authorization') ?? undefined });
    if (!bearer) return unauthorized('Missing bearer credential: send an organization API key (mcp_at_...) or an OAuth access token as Authorization: Bearer ...', new URL(req.url).origin);
    const server = buildServer(opts, tools, bearer);
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
