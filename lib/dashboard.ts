/**
 * `ServiceDashboard`: the on-call view (one CloudWatch dashboard) with a Lambda errors alarm per API function, plus
 * the sections other constructs contribute with their alarms (the API alarms of lib/alarms/api-alarms.ts, the table's,
 * the webhook pipeline's DLQ and stream-lag alarms and its row of graphs, the partner tier's, …), a row of the service's
 * own metrics (`serviceMetricWidgets`) and the account's Lambda concurrency. Notifications are not wired here:
 * lib/alarms/alarm-topic.ts `NotifyEveryAlarm` gives every alarm of the stack the alarm topic.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { withRunbook } from './alarms/runbook.ts';
import { TABLE_OPERATIONS } from './alarms/table-alarms.ts';

/** What the dashboard charts and alarms on. */
export interface ServiceDashboardProps {
  /** Functions to chart and alarm on, labelled by group. */
  readonly functions: readonly { readonly group: string; readonly fn: lambda.IFunction }[];
  readonly api: apigwv2.IHttpApi;
  readonly table: dynamodb.ITable;
  /** Further rows, each with the alarms its construct owns (shown in the status widget). */
  readonly sections?: readonly DashboardSection[];
}

/** A row another construct adds to the dashboard, with its alarms. */
export interface DashboardSection {
  readonly alarms: readonly cloudwatch.Alarm[];
  /** One row of graphs (widths summing to 24 at most). */
  readonly widgets: readonly cloudwatch.IWidget[];
}

const FIVE_MINUTES = Duration.minutes(5);
const ONE_MINUTE = Duration.minutes(1);

/**
 * Alarm thresholds (the API's own: lib/alarms/api-alarms.ts `API_ALARM_THRESHOLDS`).
 * - Function errors: at least 3 in 5 minutes. Handled errors become 4xx/500 envelopes and are not Lambda
 *   errors, so this counts crashes, timeouts and out-of-memory only.
 */
export const ALARM_THRESHOLDS = { functionErrors: 3 } as const;

/** Dashboard (API, functions, table) plus alarms; `alarms` lists every alarm created. */
export class ServiceDashboard extends Construct {
  /** Named `<stackName>-<region>-on-call`. */
  readonly dashboard: cloudwatch.Dashboard;
  /** One errors alarm per function (in `functions` order), then each section's. */
  readonly alarms: cloudwatch.Alarm[] = [];

  constructor(scope: Construct, id: string, props: ServiceDashboardProps) {
    super(scope, id);
    const { api, table, functions } = props;
    const stack = Stack.of(this);

    // Functions
    for (const { group, fn } of functions) {
      this.alarms.push(
        new cloudwatch.Alarm(this, `ErrorsAlarm-${group}`, {
          alarmDescription: withRunbook(this, `Lambda ${group}: >= ${ALARM_THRESHOLDS.functionErrors} errors (crash, timeout, OOM) in 5 min.`, 'api-function-errors'),
          metric: fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }),
          threshold: ALARM_THRESHOLDS.functionErrors,
          comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          evaluationPeriods: 1,
          treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        }),
      );
    }
    for (const section of props.sections ?? []) this.alarms.push(...section.alarms);

    const perFunction = (title: string, metricOf: (fn: lambda.IFunction) => cloudwatch.IMetric, unit: string) =>
      new cloudwatch.GraphWidget({
        title,
        width: 8,
        left: functions.map(({ group, fn }) => withLabel(metricOf(fn), group)),
        leftYAxis: { label: unit, min: 0, showUnits: false },
        legendPosition: cloudwatch.LegendPosition.RIGHT,
      });

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: `${stack.stackName}-${stack.region}-on-call`,
      defaultInterval: Duration.hours(3),
    });
    this.dashboard.addWidgets(
      new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms: this.alarms, width: 24, height: 3 }),
    );
    this.dashboard.addWidgets(
      new cloudwatch.GraphWidget({
        title: 'API requests, 4xx, 5xx (per minute)',
        width: 6,
        left: [
          api.metricCount({ period: ONE_MINUTE, statistic: 'Sum', label: 'requests' }),
          api.metricClientError({ period: ONE_MINUTE, statistic: 'Sum', label: '4xx' }),
          api.metricServerError({ period: ONE_MINUTE, statistic: 'Sum', label: '5xx' }),
        ],
      }),
      new cloudwatch.GraphWidget({
        title: 'API latency (ms)',
        width: 6,
        left: [
          api.metricLatency({ period: ONE_MINUTE, statistic: 'p50', label: 'latency p50' }),
          api.metricLatency({ period: ONE_MINUTE, statistic: 'p99', label: 'latency p99' }),
          api.metricIntegrationLatency({ period: ONE_MINUTE, statistic: 'p99', label: 'integration p99' }),
        ],
      }),
      // Two widgets: both expressions name their per-operation metrics alike (`getitem`, ...), so one graph cannot hold both.
      new cloudwatch.GraphWidget({
        title: 'DynamoDB throttled requests',
        width: 6,
        left: [withLabel(table.metricThrottledRequestsForOperations({ operations: TABLE_OPERATIONS, period: ONE_MINUTE }), 'throttled')],
      }),
      new cloudwatch.GraphWidget({
        title: 'DynamoDB system errors',
        width: 6,
        left: [withLabel(table.metricSystemErrorsForOperations({ operations: TABLE_OPERATIONS, period: ONE_MINUTE }), 'system errors')],
      }),
    );
    this.dashboard.addWidgets(
      perFunction('Lambda errors', (fn) => fn.metricErrors({ period: ONE_MINUTE, statistic: 'Sum' }), 'count'),
      perFunction('Lambda throttles', (fn) => fn.metricThrottles({ period: ONE_MINUTE, statistic: 'Sum' }), 'count'),
      perFunction('Lambda duration p99 (ms)', (fn) => fn.metricDuration({ period: ONE_MINUTE, statistic: 'p99' }), 'ms'),
    );
    this.dashboard.addWidgets(...serviceMetricWidgets());
    for (const section of props.sections ?? []) this.dashboard.addWidgets(...section.widgets);
  }
}

/** Namespace of the service's EMF metrics (shared/observability/powertools.ts `METRICS_NAMESPACE`). */
export const SERVICE_METRICS_NAMESPACE = 'TransactionCoordination';

/**
 * One of the service's own metrics: `metricName` as the function whose Powertools service name is `service` records it
 * (every metric has that one dimension: shared/observability/powertools.ts `metricSet`).
 */
export function serviceMetric(service: string, metricName: string, options: cloudwatch.MetricOptions = {}): cloudwatch.Metric {
  return new cloudwatch.Metric({ namespace: SERVICE_METRICS_NAMESPACE, metricName, dimensionsMap: { service }, period: FIVE_MINUTES, statistic: 'Sum', ...options });
}

/**
 * One row (24 wide): webhook deliveries (succeeded, failed attempts, dropped; functions/webhook-delivery), breaker
 * trips and fan-out notification failures, extraction confidence (Percent, 0–100, per completed job:
 * shared/use-cases/extract-fields.ts) and the account's Lambda concurrency (AWS/Lambda, no dimension: every
 * function of the account and region, this stack's and others', shares the unreserved pool).
 */
export function serviceMetricWidgets(): cloudwatch.IWidget[] {
  const lambdaAccount = (metricName: string, label: string) => new cloudwatch.Metric({ namespace: 'AWS/Lambda', metricName, period: ONE_MINUTE, statistic: 'Maximum', label });
  return [
    new cloudwatch.GraphWidget({
      title: 'Webhook deliveries (per 5 min)',
      width: 6,
      left: [
        serviceMetric('webhook-delivery', 'DeliveriesSucceeded', { label: 'succeeded' }),
        serviceMetric('webhook-delivery', 'DeliveriesFailed', { label: 'failed attempts' }),
        serviceMetric('webhook-delivery', 'DeliveriesDropped', { label: 'dropped' }),
      ],
      leftYAxis: { min: 0, showUnits: false },
    }),
    new cloudwatch.GraphWidget({
      title: 'Breaker trips, notification failures (per 5 min)',
      width: 6,
      left: [serviceMetric('webhook-delivery', 'BreakerTrips', { label: 'breaker trips (subscriptions paused)' }), serviceMetric('webhook-fanout', 'NotificationFailures', { label: 'notification failures' })],
      leftYAxis: { min: 0, showUnits: false },
    }),
    new cloudwatch.GraphWidget({
      title: 'Extraction confidence (%)',
      width: 6,
      left: [
        serviceMetric('extraction-extractFields', 'ExtractionConfidence', { statistic: 'p10', period: Duration.hours(1), label: 'p10' }),
        serviceMetric('extraction-extractFields', 'ExtractionConfidence', { statistic: 'p50', period: Duration.hours(1), label: 'p50' }),
      ],
      right: [serviceMetric('extraction-extractFields', 'ExtractionsNeedingReview', { period: Duration.hours(1), label: 'needing review (per hour)' })],
      leftYAxis: { min: 0, max: 100, showUnits: false },
      rightYAxis: { min: 0, showUnits: false },
    }),
    new cloudwatch.GraphWidget({
      title: 'Lambda concurrency (account, region)',
      width: 6,
      left: [lambdaAccount('ConcurrentExecutions', 'concurrent executions'), lambdaAccount('UnreservedConcurrentExecutions', 'unreserved pool in use')],
      leftYAxis: { min: 0, showUnits: false },
    }),
  ];
}

/** Returns `metric` labelled `label` (works for plain metrics and math expressions). */
function withLabel(metric: cloudwatch.IMetric, label: string): cloudwatch.IMetric {
  if (metric instanceof cloudwatch.Metric || metric instanceof cloudwatch.MathExpression) return metric.with({ label });
  return metric;
}
