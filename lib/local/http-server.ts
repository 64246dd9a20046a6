/**
 * The local stand-in for API Gateway: a Node HTTP server on 127.0.0.1 that builds each request's
 * `APIGatewayProxyEventV2` and invokes the real handler of the route's group. No business rule lives here.
 */
import http from 'node:http';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { localApiHandlers } from '#lib/local/group-handlers';
import { toApiEvent } from '#lib/local/api-event';
import { invokeLocally } from '#lib/local/invoke';
import { logger } from '#observability/powertools';

const MAX_BODY_BYTES = 10 * 1024 * 1024;
/** An API function's time limit (API Gateway's HTTP API integration limit, as deployed). */
const API_TIMEOUT_MS = 29_000;

export interface LocalApi {
  server: http.Server;
  baseUrl: string;
  close(): Promise<void>;
}

/** Starts the server. @param port 0 picks a free port */
export async function startLocalApi(opts: { port: number; host?: string }): Promise<LocalApi> {
  const host = opts.host ?? '127.0.0.1';
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY_BYTES) chunks.push(c);
    });
    req.on('end', async () => {
      if (size > MAX_BODY_BYTES) return send(res, { statusCode: 422, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { code: 'validation_error', message: 'Request body too large.', fields: { body: `must be at most ${MAX_BODY_BYTES} bytes` } } }) });
      try {
        const { route, handlerOf } = await localApiHandlers();
        const { event, group } = toApiEvent(req, Buffer.concat(chunks), route);
        const result = (await invokeLocally(handlerOf(group), event, `local-${group}`, event.requestContext.requestId, API_TIMEOUT_MS)) as APIGatewayProxyStructuredResultV2;
        send(res, result);
      } catch (err) {
        logger.error('local API invocation failed', { source: 'http-server', error: err });
        send(res, { statusCode: 500, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { code: 'internal_error', message: 'An unexpected error occurred.' } }) });
      }
    });
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve) => server.listen(opts.port, host, resolve));
  const { port } = server.address() as { port: number };
  return {
    server,
    baseUrl: `http://${host}:${port}`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

function send(res: http.ServerResponse, result: APIGatewayProxyStructuredResultV2) {
  res.writeHead(result.statusCode ?? 200, result.headers as http.OutgoingHttpHeaders);
  res.end(result.isBase64Encoded && result.body ? Buffer.from(result.body, 'base64') : result.body);
}
