/**
 * One access log line and the request metrics per API request (../shared/ARCHITECTURE.md "Request pipeline"). Sits just
 * inside the Powertools middlewares, so it sees every outcome: the operation's response, or the envelope the
 * error middleware made of a failure.
 *
 * - Log line (INFO, message `request`): `requestId` (Lambda's, as in a 500's reference), `apiRequestId` (API
 *   Gateway's), `method`, `route`, `status`, `latencyMs`, and `errorCode` (the envelope's `error.code`) for
 *   4xx/5xx; `operationId` and `orgId` come with the keys the pipeline appended once it knew them.
 * - Metrics (EMF, dimension `service` only: `REQUEST_METRICS`): `Requests` (Count), `Latency` (Milliseconds), and
 *   `RateLimited` for a 429, `ServerErrors` for a 5xx other than 501, `NotImplemented` for a 501 (a planned
 *   operation is not a fault; the 5xx alarm leaves it out too) (Count). The EMF document also carries the
 *   properties `operation` (the operationId, or `unmatched` for a path no operation serves) and `statusClass`
 *   (`2xx`…`5xx`): not dimensions, which would make one custom metric per operation, status class and metric
 *   (hundreds), but searchable in Logs Insights:
 *   `filter ispresent(Requests) | stats sum(Requests), pct(Latency, 99) by operation, statusClass`.
 */
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logger, metricSet, metrics } from '#observability/powertools';
import { stateOf } from '#http/state';

/** The request metrics (one CloudWatch metric each per API function). */
export const REQUEST_METRICS = metricSet(['Requests', 'Latency', 'RateLimited', 'ServerErrors', 'NotImplemented']);

/** The envelope's `error.code` of an error response, or undefined. */
function errorCodeOf(response: APIGatewayProxyStructuredResultV2 | undefined): string | undefined {
  if (!response?.body || (response.statusCode ?? 200) < 400) return undefined;
  try {
    return (JSON.parse(response.body) as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
}

export function accessLog(): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyResultV2> {
  const finish = (request: middy.Request<APIGatewayProxyEventV2, APIGatewayProxyResultV2>) => {
    const state = stateOf(request);
    const response = request.response as APIGatewayProxyStructuredResultV2 | undefined;
    // No response here means the envelope middleware itself failed: Lambda answers 500.
    const status = response?.statusCode ?? 500;
    const latencyMs = Math.round((performance.now() - (state.startedMs ?? performance.now())) * 100) / 100;
    const operation = state.op?.operationId ?? 'unmatched';
    const statusClass = `${Math.floor(status / 100)}xx`;
    const errorCode = errorCodeOf(response);
    logger.info('request', {
      requestId: request.context.awsRequestId,
      apiRequestId: request.event.requestContext?.requestId,
      method: request.event.requestContext?.http?.method,
      route: request.event.routeKey,
      status,
      latencyMs,
      ...(errorCode && { errorCode }),
    });
    metrics.addMetadata('operation', operation);
    metrics.addMetadata('statusClass', statusClass);
    REQUEST_METRICS.add('Requests', MetricUnit.Count, 1);
    REQUEST_METRICS.add('Latency', MetricUnit.Milliseconds, latencyMs);
    if (status === 429) REQUEST_METRICS.add('RateLimited', MetricUnit.Count, 1);
    if (status === 501) REQUEST_METRICS.add('NotImplemented', MetricUnit.Count, 1);
    else if (status >= 500) REQUEST_METRICS.add('ServerErrors', MetricUnit.Count, 1);
  };
  return {
    before: (request) => {
      stateOf(request).startedMs = performance.now();
    },
    after: finish,
    onError: finish,
  };
}
