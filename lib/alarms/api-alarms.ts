/**
 * `ApiAlarms`: the HTTP API's alarms. 5xx and 429 are counted from the API's access log (metric filters): it
 * records every response, including the ones API Gateway makes itself (stage throttling 429s, 502/503/504 when a
 * function crashes or times out) that a function's own EMF metrics never see, and it tells a 501 (a planned
 * operation answering `not_implemented`, not a fault) from other 5xx, which API Gateway's `5xx` metric does not.
 */
import { Duration } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { countLines } from './log-metric.ts';
import { withRunbook } from './runbook.ts';

/**
 * Thresholds (5-minute periods):
 * - 5xx: >= 10 server errors other than 501 AND >= 5 % of requests, one period.
 * - p99 latency: >= 3,000 ms for 3 periods in a row, only counted when a period has >= 50 requests (a quiet
 *   period's p99 is one slow report or cold start).
 * - 4xx surge: >= 30 % of requests AND >= 50 4xx, 3 periods in a row (a broken client or a deploy that rejects
 *   good requests; one client's burst of 404s passes).
 * - 429 surge: >= 100 429s (stage throttling or per-key limits), 2 periods in a row.
 * - Lambda throttles: >= 5 throttled invocations of the API functions, one period.
 */
export const API_ALARM_THRESHOLDS = {
  api5xxMinCount: 10,
  api5xxPercent: 5,
  latencyP99Ms: 3000,
  latencyMinRequests: 50,
  clientErrorPercent: 30,
  clientErrorMinCount: 50,
  rateLimited: 100,
  lambdaThrottles: 5,
} as const;

/** CloudWatch alarms take at most 10 metrics; the API functions' throttles are summed 10 at a time. */
const METRICS_PER_ALARM = 10;

/** Inputs of `ApiAlarms`. */
export interface ApiAlarmsProps {
  readonly api: apigwv2.IHttpApi;
  /** The stage's JSON access log (lib/http-api.ts `ACCESS_LOG_FIELDS`: `status` is a string). */
  readonly accessLogs: logs.ILogGroup;
  /** Every function behind the API (API groups and public-route workers), labelled. */
  readonly functions: readonly { readonly label: string; readonly fn: lambda.IFunction }[];
}

/** API 5xx (without 501), p99 latency, 4xx surge, 429 surge, and throttles of the API functions. */
export class ApiAlarms extends Construct {
  /** In that order; the throttle alarms last (one per 10 functions). */
  readonly alarms: readonly cloudwatch.Alarm[];
  /** Server errors other than 501, per 5 minutes (access log). */
  readonly serverErrors: cloudwatch.Metric;
  /** 429 responses per 5 minutes (access log). */
  readonly rateLimited: cloudwatch.Metric;

  constructor(scope: Construct, id: string, props: ApiAlarmsProps) {
    super(scope, id);
    const t = API_ALARM_THRESHOLDS;
    const period = Duration.minutes(5);
    const requests = props.api.metricCount({ period, statistic: 'Sum' });
    this.serverErrors = countLines(this, 'ServerErrorsFilter', {
      logGroup: props.accessLogs,
      name: 'Api5xxExcluding501',
      pattern: logs.FilterPattern.all(logs.FilterPattern.stringValue('$.status', '=', '5*'), logs.FilterPattern.stringValue('$.status', '!=', '501')),
      label: '5xx (not 501)',
    });
    this.rateLimited = countLines(this, 'RateLimitedFilter', {
      logGroup: props.accessLogs,
      name: 'Api429',
      pattern: logs.FilterPattern.stringValue('$.status', '=', '429'),
      label: '429',
    });
    const alarm = (alarmId: string, description: string, metric: cloudwatch.IMetric, threshold: number, evaluationPeriods = 1) =>
      new cloudwatch.Alarm(this, alarmId, {
        alarmDescription: description,
        metric,
        threshold,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });

    const alarms = [
      alarm(
        'Api5xxAlarm',
        withRunbook(this, `API 5xx: >= ${t.api5xxMinCount} server errors (501 not_implemented excluded) and >= ${t.api5xxPercent}% of requests in 5 min.`, 'api-5xx-errors'),
        new cloudwatch.MathExpression({
          expression: `IF(errors >= ${t.api5xxMinCount}, 100 * errors / requests, 0)`,
          usingMetrics: { errors: this.serverErrors, requests },
          period,
          label: '5xx (not 501) % of requests',
        }),
        t.api5xxPercent,
      ),
      alarm(
        'ApiLatencyP99Alarm',
        withRunbook(this, `API p99 latency >= ${t.latencyP99Ms} ms for 15 min (periods with >= ${t.latencyMinRequests} requests).`, 'api-p99-latency'),
        new cloudwatch.MathExpression({
          expression: `IF(requests >= ${t.latencyMinRequests}, p99, 0)`,
          usingMetrics: { p99: props.api.metricLatency({ period, statistic: 'p99' }), requests },
          period,
          label: 'latency p99 (ms)',
        }),
        t.latencyP99Ms,
        3,
      ),
      alarm(
        'Api4xxSurgeAlarm',
        withRunbook(this, `API 4xx surge: >= ${t.clientErrorPercent}% of requests and >= ${t.clientErrorMinCount} 4xx per 5 min, for 15 min.`, 'api-4xx-surge'),
        new cloudwatch.MathExpression({
          expression: `IF(clientErrors >= ${t.clientErrorMinCount}, 100 * clientErrors / requests, 0)`,
          usingMetrics: { clientErrors: props.api.metricClientError({ period, statistic: 'Sum' }), requests },
          period,
          label: '4xx % of requests',
        }),
        t.clientErrorPercent,
        3,
      ),
      alarm(
        'Api429SurgeAlarm',
        withRunbook(this, `API 429 surge: >= ${t.rateLimited} rate-limited responses (stage throttling or per-key limits) per 5 min, for 10 min.`, 'api-429-surge'),
        this.rateLimited,
        t.rateLimited,
        2,
      ),
    ];

    const chunks = chunk(props.functions, METRICS_PER_ALARM);
    chunks.forEach((fns, i) => {
      const names = fns.map((f) => f.label).join(', ');
      alarms.push(
        alarm(
          `LambdaThrottlesAlarm${chunks.length > 1 ? i + 1 : ''}`,
          withRunbook(this, `API functions throttled: >= ${t.lambdaThrottles} throttled invocations in 5 min (${names}).`, 'api-lambda-throttles'),
          new cloudwatch.MathExpression({
            expression: fns.map((_f, j) => `t${j}`).join(' + '),
            usingMetrics: Object.fromEntries(fns.map((f, j) => [`t${j}`, f.fn.metricThrottles({ period, statistic: 'Sum' })])),
            period,
            label: 'throttles',
          }),
          t.lambdaThrottles,
        ),
      );
    });
    this.alarms = alarms;
  }

  /** One dashboard row: 5xx without 501 and 429s, from the access log. */
  dashboardWidgets(): cloudwatch.IWidget[] {
    return [
      new cloudwatch.GraphWidget({
        title: 'API 5xx without 501, 429 (access log, per 5 min)',
        width: 12,
        left: [this.serverErrors, this.rateLimited],
        leftYAxis: { min: 0, showUnits: false },
      }),
    ];
  }
}

/** `items` in consecutive groups of at most `size`. */
function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
