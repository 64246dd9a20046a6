/**
 * The local stand-in for API Gateway: a Node HTTP server on 127.0.0.1 that builds each request's
 * `APIGatewayProxyEventV2` and invokes the real handler of the route's group (or, for a public route such as a
 * shared link, of its worker), plus the reference page, the OpenAPI document and the MCP endpoint
 * (lib/local/self-description.ts). No business rule lives here.
 */
import http from 'node:http';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { localApiHandlers } from '#lib/local/group-handlers';
import { requestUrl, toApiEvent } from '#lib/local/api-event';
import { answerClientError, MISSING_HOST, malformedRequestBody } from '#lib/local/client-error';
import { invokeLocally } from '#lib/local/invoke';
import { createRouter } from '#lib/local/router';
import { corsPreflight, withCors } from '#lib/local/cors';
import { PUBLIC_ROUTES } from '#lib/public-routes';
import { serveSelfDescription } from '#lib/local/self-description';
import { logger } from '#observability/powertools';

/** Routes outside /api/v1 (lib/public-routes.ts), matched before the API's. */
const publicRoute = createRouter(PUBLIC_ROUTES);

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
  let baseUrl = `http://${host}:${opts.port}`;
  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (req.httpVersionMajor === 1 && req.httpVersionMinor === 1 && req.headers.host === undefined) return refuseMissingHost(req, res);
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY_BYTES) chunks.push(c);
    });
    req.on('end', async () => {
      if (size > MAX_BODY_BYTES) return send(res, { statusCode: 422, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { code: 'validation_error', message: 'Request body too large.', fields: { body: `must be at most ${MAX_BODY_BYTES} bytes` } } }) });
      const pathname = requestUrl(req.url).pathname;
      const preflight = corsPreflight(req, pathname);
      if (preflight) return send(res, preflight);
      try {
        const self = await serveSelfDescription(req, requestUrl(req.url).pathname, Buffer.concat(chunks), baseUrl);
        if (self) return send(res, self);
        const { route, handlerOf } = await localApiHandlers();
        const pub = publicRoute((req.method ?? 'GET').toUpperCase(), requestUrl(req.url).pathname);
        if (pub) {
          const { event } = toApiEvent(req, Buffer.concat(chunks), () => pub);
          const { handler } = (await import(`#functions/${pub.op.worker}/handler`)) as { handler: (e: typeof event) => Promise<APIGatewayProxyStructuredResultV2> };
          return send(res, (await invokeLocally(handler, event, pub.op.worker, event.requestContext.requestId, API_TIMEOUT_MS)) as APIGatewayProxyStructuredResultV2);
        }
        const { event, group } = toApiEvent(req, Buffer.concat(chunks), route);
        const result = (await invokeLocally(handlerOf(group), event, `local-${group}`, event.requestContext.requestId, API_TIMEOUT_MS)) as APIGatewayProxyStructuredResultV2;
        send(res, withCors(req, pathname, result));
      } catch (err) {
        logger.error('local API invocation failed', { source: 'http-server', error: err });
        send(res, { statusCode: 500, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { code: 'internal_error', message: 'An unexpected error occurred.' } }) });
      }
    });
  };
  // Node's own Host check answers a bare 400; the request handler answers it with the envelope instead.
  const server = http.createServer({ requireHostHeader: false }, onRequest);
  // An `Expect` other than 100-continue would get Node's bare 417; RFC 9110 §10.1.1 lets a server ignore it.
  server.on('checkExpectation', onRequest);
  // Malformed HTTP gets the envelope too, not Node's bare 400 (lib/local/client-error.ts).
  server.on('clientError', answerClientError);
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve) => server.listen(opts.port, host, resolve));
  const { port } = server.address() as { port: number };
  baseUrl = `http://${host}:${port}`;
  return {
    server,
    baseUrl,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** RFC 9112 §3.2: an HTTP/1.1 request without Host is a 400; in the envelope, and the connection closed. */
function refuseMissingHost(req: http.IncomingMessage, res: http.ServerResponse) {
  req.resume();
  res.shouldKeepAlive = false;
  send(res, { statusCode: 400, headers: { 'content-type': 'application/json' }, body: malformedRequestBody(MISSING_HOST) });
}

function send(res: http.ServerResponse, result: APIGatewayProxyStructuredResultV2) {
  res.writeHead(result.statusCode ?? 200, result.headers as http.OutgoingHttpHeaders);
  res.end(result.isBase64Encoded && result.body ? Buffer.from(result.body, 'base64') : result.body);
}
