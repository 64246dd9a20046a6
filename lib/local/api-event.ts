/**
 * Turns a Node HTTP request into the `APIGatewayProxyEventV2` that API Gateway's HTTP API (payload 2.0)
 * would deliver, with the manifest's route key and path parameters, or `$default` when no route matches.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type { RegisteredOperation } from '#api/operation';
import type { LambdaGroup } from '#api/types';
import type { Router } from '#lib/local/router';

/** The event, and the group whose function API Gateway would invoke (`meta` serves `$default`). */
export function toApiEvent(req: IncomingMessage, body: Buffer, route: Router<RegisteredOperation>, stage = '$default'): { event: APIGatewayProxyEventV2; group: LambdaGroup } {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const method = (req.method ?? 'GET').toUpperCase();
  const match = route(method, url.pathname);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(',') : v;
  const query: Record<string, string> = {};
  url.searchParams.forEach((v, k) => (query[k] = k in query ? `${query[k]},${v}` : v));
  const isText = body.length === 0 || /json|text|x-www-form-urlencoded/.test(headers['content-type'] ?? 'application/json');
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
  return { event, group: match?.op.group ?? 'meta' };
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
