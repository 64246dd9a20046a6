/**
 * Lets a group function also serve an API Gateway REST API (payload format 1.0), as the partner stage does
 * (lib/partner-api.ts): a 1.0 event (it has `httpMethod`) is rewritten into the 2.0 shape the pipeline reads, with the
 * route key `<METHOD> <resource>` (`resource` is the route template, e.g. `/api/v1/orgs/{orgId}`). The 2.0 result
 * (`statusCode`, `headers`, `body`) is also a valid 1.0 proxy result, so the response is left as it is.
 */
import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';

/** True for a REST API (payload 1.0) event. */
export const isRestEvent = (event: unknown): event is APIGatewayProxyEvent => typeof event === 'object' && event !== null && 'httpMethod' in event && !('routeKey' in event);

/** The 2.0 event of a 1.0 event (headers lower-cased; repeated query keys joined with commas, as 2.0 does). */
export function toHttpApiEvent(e: APIGatewayProxyEvent): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(e.headers ?? {})) if (v !== undefined) headers[k.toLowerCase()] = v;
  const query: Record<string, string> = {};
  for (const [k, v] of Object.entries(e.multiValueQueryStringParameters ?? {})) if (v) query[k] = v.join(',');
  const routeKey = `${e.httpMethod} ${e.resource}`;
  const rawQueryString = new URLSearchParams(Object.entries(e.multiValueQueryStringParameters ?? {}).flatMap(([k, vs]) => (vs ?? []).map((v): [string, string] => [k, v]))).toString();
  return {
    version: '2.0',
    routeKey,
    rawPath: e.path,
    rawQueryString,
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: (e.pathParameters as Record<string, string> | null) ?? undefined,
    requestContext: {
      accountId: e.requestContext.accountId,
      apiId: e.requestContext.apiId,
      domainName: e.requestContext.domainName ?? headers.host ?? '',
      domainPrefix: e.requestContext.domainPrefix ?? '',
      http: { method: e.httpMethod, path: e.path, protocol: e.requestContext.protocol, sourceIp: e.requestContext.identity.sourceIp, userAgent: e.requestContext.identity.userAgent ?? '' },
      requestId: e.requestContext.requestId,
      routeKey,
      stage: e.requestContext.stage,
      time: new Date(e.requestContext.requestTimeEpoch).toUTCString(),
      timeEpoch: e.requestContext.requestTimeEpoch,
    },
    body: e.body ?? undefined,
    isBase64Encoded: e.isBase64Encoded,
  };
}

export function restPayloadV1(): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyResultV2> {
  return {
    before: (request) => {
      if (isRestEvent(request.event)) request.event = toHttpApiEvent(request.event);
    },
  };
}
