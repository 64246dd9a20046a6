/**
 * The deployed MCP endpoint's Lambda handler (`POST|GET|DELETE /mcp` on the HTTP API; lib/mcp-endpoint.ts builds
 * it with the tool list written at synthesis). A tool call goes through the same pipeline as any request by
 * calling the API's own URL (`MCP_API_URL`, the HTTP API's endpoint) with the caller's bearer credential: API
 * Gateway's throttling and access log, then the group function's authentication, scopes, rate limit, validation and
 * idempotency. The function itself holds no credential and makes no AWS call.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { mcpEndpoint } from '#lib/mcp/endpoint';
import type { ToolEntry } from '#lib/mcp/tool-route';
import { config } from '#ports/config';

/** How long a tool call may take: API Gateway's own integration limit (30 s) less a margin. */
const CALL_TIMEOUT_MS = 29_000;

/** The API's base URL, without a trailing slash. @throws ConfigurationError when `MCP_API_URL` is unset (a deployment error) */
function apiUrl(): string {
  return config.mcpApiUrl.replace(/\/+$/, '');
}

/** Runs a tool call's API event as an HTTPS request to the API. */
async function overHttp(event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> {
  const url = `${apiUrl()}${event.rawPath}${event.rawQueryString ? `?${event.rawQueryString}` : ''}`;
  const res = await fetch(url, { method: event.requestContext.http.method, headers: event.headers as Record<string, string>, body: event.body, signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
  return { statusCode: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
}

/** The web `Request` of an API Gateway payload 2.0 event (its origin is the domain the client called). */
function requestOf(event: APIGatewayProxyEventV2): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(event.headers ?? {})) if (v !== undefined) headers.set(k, v);
  const method = event.requestContext.http.method;
  const body = event.body === undefined || method === 'GET' || method === 'HEAD' ? undefined : event.isBase64Encoded ? Buffer.from(event.body, 'base64') : event.body;
  return new Request(`https://${event.requestContext.domainName}${event.rawPath}`, { method, headers, body });
}

/**
 * The Lambda handler serving `tools`.
 * @param version the server's version in `initialize`
 */
export function mcpLambdaHandler(tools: readonly ToolEntry[], version: string): (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyStructuredResultV2> {
  const endpoint = mcpEndpoint({ tools, version, dispatch: (_route, event) => overHttp(event) });
  return async (event) => {
    const res = await endpoint(requestOf(event));
    return { statusCode: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
  };
}
