/**
 * What the local server serves besides the API: the OpenAPI document (`GET /openapi.json`), the reference page
 * (`GET /docs`, rendered by Redoc's vendored standalone bundle at `/docs/redoc.standalone.js`), and the MCP
 * endpoint (`/mcp`, Streamable HTTP; lib/mcp/server.ts) whose tool calls run through the local group handlers.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { loadOperations } from '#lib/registry';
import { buildOpenApi } from '#lib/openapi/document';
import { referencePage, rendererPath, RENDERER_FILE } from '#lib/openapi/reference-page';
import { landingDocument, LANDING_PATHS } from '#lib/openapi/landing';
import { mcpHandler, MCP_PATH } from '#lib/mcp/server';
import { localApiHandlers } from '#lib/local/group-handlers';
import { invokeLocally } from '#lib/local/invoke';
import { API_VERSION } from '#functions/meta/get-health';

const API_TIMEOUT_MS = 29_000;

interface Served {
  openapi: string;
  mcp: (req: Request) => Promise<Response>;
}

/** Per base URL: the document names the server it is served from (one per process with `npm start`; tests run several). */
const loading = new Map<string, Promise<Served>>();

function served(baseUrl: string): Promise<Served> {
  const cached = loading.get(baseUrl);
  if (cached) return cached;
  const built = loadOperations().then((ops) => ({
    openapi: JSON.stringify(buildOpenApi(ops, baseUrl), null, 2),
    mcp: mcpHandler({
      ops,
      version: API_VERSION,
      dispatch: async (op, event) => {
        const { handlerOf } = await localApiHandlers();
        return (await invokeLocally(handlerOf(op.group), event, `local-${op.group}`, event.requestContext.requestId, API_TIMEOUT_MS)) as APIGatewayProxyStructuredResultV2;
      },
    }),
  }));
  loading.set(baseUrl, built);
  return built;
}

const ok = (contentType: string, body: string): APIGatewayProxyStructuredResultV2 => ({ statusCode: 200, headers: { 'content-type': contentType, 'cache-control': 'no-cache' }, body });

/**
 * The response of a self-description route, or undefined when `pathname` is not one (the API handles it).
 * @param baseUrl the server's own base URL (the document's default server)
 */
export async function serveSelfDescription(req: IncomingMessage, pathname: string, body: Buffer, baseUrl: string): Promise<APIGatewayProxyStructuredResultV2 | undefined> {
  const method = (req.method ?? 'GET').toUpperCase();
  if (method === 'GET' && (LANDING_PATHS as readonly string[]).includes(pathname)) return ok('application/json', JSON.stringify(landingDocument({ mcp: true })));
  if (method === 'GET' && pathname === '/openapi.json') return ok('application/json', (await served(baseUrl)).openapi);
  if (method === 'GET' && (pathname === '/docs' || pathname === '/docs/')) return ok('text/html; charset=utf-8', referencePage({ specUrl: '/openapi.json', rendererUrl: `/docs/${RENDERER_FILE}`, title: 'Transaction-Coordination Service API' }));
  if (method === 'GET' && pathname === `/docs/${RENDERER_FILE}`) return ok('text/javascript; charset=utf-8', readFileSync(rendererPath(), 'utf8'));
  if (pathname !== MCP_PATH) return undefined;
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(',') : v);
  const request = new Request(`${baseUrl}${MCP_PATH}`, { method, headers, body: method === 'GET' || method === 'HEAD' || !body.length ? undefined : new Uint8Array(body) });
  const response = await (await served(baseUrl)).mcp(request);
  return { statusCode: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
}
