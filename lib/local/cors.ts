/**
 * CORS on the local server as API Gateway applies the HTTP API's `corsPreflight` (lib/edge-settings.ts
 * `CORS_POLICY`, every origin allowed): it answers a preflight itself, and adds the allow/expose headers to any
 * response of a request that carries `Origin`. Only `/api/v1/*` is a CORS resource here.
 */
import type http from 'node:http';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { CORS_POLICY } from '#lib/edge-settings';

const isApi = (pathname: string) => pathname.startsWith('/api/v1/');

/** The preflight answer (204) for an `OPTIONS` with `Origin` and `Access-Control-Request-Method`, else undefined. */
export function corsPreflight(req: http.IncomingMessage, pathname: string): APIGatewayProxyStructuredResultV2 | undefined {
  if (req.method !== 'OPTIONS' || !isApi(pathname) || !req.headers.origin || !req.headers['access-control-request-method']) return undefined;
  return {
    statusCode: 204,
    headers: {
      'access-control-allow-origin': '*',
      'access-control-allow-methods': CORS_POLICY.allowMethods.join(','),
      'access-control-allow-headers': CORS_POLICY.allowHeaders.join(','),
      'access-control-max-age': String(CORS_POLICY.maxAgeSeconds),
    },
    body: '',
  };
}

/** `result` with the CORS response headers when the request carries `Origin` (an API path only). */
export function withCors(req: http.IncomingMessage, pathname: string, result: APIGatewayProxyStructuredResultV2): APIGatewayProxyStructuredResultV2 {
  if (!req.headers.origin || !isApi(pathname)) return result;
  return {
    ...result,
    headers: { ...result.headers, 'access-control-allow-origin': '*', 'access-control-expose-headers': CORS_POLICY.exposeHeaders.join(',') },
  };
}
