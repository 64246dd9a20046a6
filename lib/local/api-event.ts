/**
 * Turns a Node HTTP request into the `APIGatewayProxyEventV2` that API Gateway's HTTP API (payload 2.0)
 * would deliver, with the manifest's route key and path parameters, or `$default` when no route matches.
 */
import { isUtf8 } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { dict } from '#domain/dict';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type { RegisteredOperation } from '#api/operation';
import type { LambdaGroup } from '#api/types';
import type { Routable, RouteMatch, Router } from '#lib/local/router';

/** The event, and the group whose function API Gateway would invoke (`meta` serves `$default`). */
export function toApiEvent(
  req: IncomingMessage,
  body: Buffer,
  route: Router<Routable>,
  stage = '$default',
): { event: APIGatewayProxyEventV2; group: LambdaGroup; match?: RouteMatch<Routable> } {
  const url = requestUrl(req.url);
  const method = (req.method ?? 'GET').toUpperCase();
  const match = route(method, url.pathname);
  // Prototype-less maps: a header or query key such as `constructor` or `__proto__` is an ordinary key.
  const headers = dict<string>();
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(',') : v;
  // API Gateway sets the scheme the client used; the local server speaks plain HTTP.
  headers['x-forwarded-proto'] = 'http';
  const query = dict<string>();
  // Repeated keys are joined with commas, as API Gateway's payload 2.0 does.
  url.searchParams.forEach((v, k) => (query[k] = Object.hasOwn(query, k) ? `${query[k]},${v}` : v));
  // A text body that is not UTF-8 is passed base64-encoded, as API Gateway passes binary, so validation can refuse it.
  const isText = body.length === 0 || (/json|text|x-www-form-urlencoded/.test(headers['content-type'] ?? 'application/json') && isUtf8(body));
  const now = new Date();
  const event: APIGatewayProxyEventV2 = {
    version: '2.0',
    routeKey: match ? `${match.op.method} ${match.op.path}` : '$default',
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: match && Object.keys(match.pathParameters).length ? match.pathParameters : undefined,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'local',
      http: { method, path: url.pathname, protocol: 'HTTP/1.1', sourceIp: req.socket.remoteAddress ?? '127.0.0.1', userAgent: headers['user-agent'] ?? '' },
      requestId: randomUUID(),
      routeKey: match ? `${match.op.method} ${match.op.path}` : '$default',
      stage,
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    body: body.length ? (isText ? body.toString('utf8') : body.toString('base64')) : undefined,
    isBase64Encoded: body.length > 0 && !isText,
  };
  return { event, group: (match?.op as Partial<RegisteredOperation> | undefined)?.group ?? 'meta', match };
}

/**
 * The URL of a request target: origin-form (`/path?query`) or absolute-form (RFC 9112 §3.2). A target the
 * URL parser refuses (e.g. `//[`) becomes `/`, which no operation serves: 404, never a crash.
 */
export function requestUrl(target = '/'): URL {
  try {
    return target.startsWith('/') ? new URL(`http://localhost${target}`) : new URL(target);
  } catch {
    return new URL('http://localhost/');
  }
}

/**
 * A Lambda `Context` for one local invocation.
 * @param timeoutMs what `getRemainingTimeInMillis` counts down from (default 29 s, the API's limit); middy ends the
 *   handler with a `TimeoutError` just before it runs out
 */
export function localContext(functionName: string, requestId: string = randomUUID(), timeoutMs = 29_000): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
