/**
 * `ServiceDashboard`: the on-call view (one CloudWatch dashboard) and the two alarms worth waking for:
 * API 5xx rate and Lambda errors per function, plus the sections other constructs contribute (e.g. the
 * webhook pipeline's DLQ and stream-lag alarms and its row of graphs).
 */
import { Duration, Stack } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';

/** What the dashboard charts; `alarmActions` wires notifications. */
export interface ServiceDashboardProps {
  /** Functions to chart and alarm on, labelled by group. */
  readonly functions: readonly { readonly group: string; readonly fn: lambda.IFunction }[];
  readonly api: apigwv2.IHttpApi;
  readonly table: dynamodb.ITable;
  /** Where alarms notify (e.g. an SNS topic action). Default none: alarms show on the dashboard only. */
  readonly alarmActions?: readonly cloudwatch.IAlarmAction[];
  /** Further rows, each with the alarms its construct owns (shown in the status widget, notified like the rest). */
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

/** Data-plane operations the service calls (the dashboard sums throttles and system errors over these). */
const TABLE_OPERATIONS = [
  dynamodb.Operation.GET_ITEM,
  dynamodb.Operation.QUERY,
  dynamodb.Operation.PUT_ITEM,
  dynamodb.Operation.UPDATE_ITEM,
  dynamodb.Operation.DELETE_ITEM,
  dynamodb.Operation.BATCH_GET_ITEM,
  dynamodb.Operation.TRANSACT_WRITE_ITEMS,
];

/**
 * Alarm thresholds.
 * - API 5xx: at least 10 server errors AND at least 5 % of requests in a 5-minute period. Note that 501
 *   `not_implemented` (planned operations) counts as 5xx in API Gateway's metric; the count floor keeps a
 *   client probing planned routes from paging alone.
 * - Function errors: at least 3 in 5 minutes. Handled errors become 4xx/500 envelopes and are not Lambda
 *   errors, so this counts crashes, timeouts and out-of-memory only.
 */
export const ALARM_THRESHOLDS = { api5xxMinCount: 10, api5xxPercent: 5, functionErrors: 3 } as const;

/** Dashboard (API, functions, table) plus alarms; `alarms` lists every alarm created. */
export class ServiceDashboard extends Construct {
  /** Named `<stackName>-<region>-on-call`. */
  readonly dashboard: cloudwatch.Dashboard;
  /** The API 5xx alarm first, then one errors alarm per function (in `functions` order), then each section's. */
  readonly alarms: cloudwatch.Alarm[] = [];

  constructor(scope: Construct, id: string, props: ServiceDashboardProps) {
    super(scope, id);
    const { api, table, functions } = props;
    const stack = Stack.of(this);

    // API
    const requests = api.metricCount({ period: FIVE_MINUTES, statistic: 'Sum' });
    const server = api.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' });
    const api5xx = new cloudwatch.Alarm(this, 'Api5xxAlarm', {
      alarmDescription:
        `API 5xx: >= ${ALARM_THRESHOLDS.api5xxMinCount} server errors and >= ${ALARM_THRESHOLDS.api5xxPercent}% ` +
        'of requests in 5 min. Check function error logs and DynamoDB system errors on the dashboard.',
      metric: new cloudwatch.MathExpression({
        expression: `IF(errors >= ${ALARM_THRESHOLDS.api5xxMinCount}, 100 * errors / requests, 0)`,
        usingMetrics: { errors: server, requests },
        period: FIVE_MINUTES,
        label: '5xx % of requests',
      }),
      threshold: ALARM_THRESHOLDS.api5xxPercent,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    this.alarms.push(api5xx);

    // Functions
    for (const { group, fn } of functions) {
      this.alarms.push(
        new cloudwatch.Alarm(this, `ErrorsAlarm-${group}`, {
          alarmDescription: `Lambda ${group}: >= ${ALARM_THRESHOLDS.functionErrors} errors (crash, timeout, OOM) in 5 min.`,
          metric: fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }),
          threshold: ALARM_THRESHOLDS.functionErrors,
          comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          evaluationPeriods: 1,
          treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        }),
      );
    }
    for (const section of props.sections ?? []) this.alarms.push(...section.alarms);
    for (const alarm of this.alarms) alarm.addAlarmAction(...(props.alarmActions ?? []));

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
    for (const section of props.sections ?? []) this.dashboard.addWidgets(...section.widgets);
  }
}

/** Returns `metric` labelled `label` (works for plain metrics and math expressions). */
function withLabel(metric: cloudwatch.IMetric, label: string): cloudwatch.IMetric {
  if (metric instanceof cloudwatch.Metric || metric instanceof cloudwatch.MathExpression) return metric.with({ label });
  return metric;
}
