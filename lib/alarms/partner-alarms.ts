/**
 * `PartnerAlarms`: the partner tier's alarms and dashboard row. The alarms live in the partner nested stack
 * (lib/partner-api.ts), with the authorizer's deployment group that rolls back on one of them: an alarm in the main
 * stack reading the nested stack's outputs, named back into it as a parameter, would make the two stacks depend on
 * each other. The main stack's alarm topic reaches them as a parameter (lib/alarms/alarm-topic.ts `NotifyEveryAlarm`),
 * and its dashboard shows them.
 *
 * - Authorizer errors. The authorizer refuses a key by throwing `Unauthorized` (API Gateway's contract for a 401 from
 *   a Lambda authorizer: functions/partner-authorizer/handler.ts), which Lambda counts as an error; those are counted
 *   from its log (the runtime's `Invoke Error` line with `Error: Unauthorized`) and subtracted, so a burst of bad keys
 *   does not page. What is left are crashes, timeouts and DynamoDB failures: API Gateway answers them with 500s.
 * - Stage 5xx: AWS/ApiGateway `5XXError` of the stage (ApiName + Stage), as the HTTP API's alarm does (>= 10 and >= 5 %).
 * - Dashboard: requests, 4xx and 5xx of the stage, its latency, and 429s. API Gateway publishes no usage-plan throttle
 *   metric (a throttled or over-quota request is a 4XX): with stage logging on (context `apiGatewayCloudWatchRole`) the
 *   429s are counted from the stage's access log; the partner function's own per-key limits are its `RateLimited`.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { PartnerApi } from '../partner-api.ts';
import { API_ALARM_THRESHOLDS } from './api-alarms.ts';
import { LOG_METRICS_NAMESPACE } from './log-metric.ts';
import { withRunbook } from './runbook.ts';

/** Namespace of the service's own (EMF) metrics (shared/observability/powertools.ts `METRICS_NAMESPACE`). */
const SERVICE_NAMESPACE = 'TransactionCoordination';

/** Authorizer errors (crash, timeout, table failure; refusals excluded) in 5 minutes that alarm. */
export const PARTNER_AUTHORIZER_ERRORS_THRESHOLD = 3;

/** The log terms of a refusal: the Node.js runtime logs a thrown error as `Invoke Error` with its stack (`Error: Unauthorized`). */
export const AUTHORIZER_REFUSAL_TERMS = ['Invoke Error', 'Error: Unauthorized'] as const;

export interface PartnerAlarmsProps {
  readonly partnerApi: PartnerApi;
}

/** The refusals metric's name: `<main stack name>-PartnerAuthorizerRefusals` (two stacks in one account do not add up). */
export const authorizerRefusalsMetricName = (mainStack: Stack): string => `${mainStack.stackName}-PartnerAuthorizerRefusals`;

export class PartnerAlarms extends Construct {
  readonly authorizerErrors: cloudwatch.Alarm;
  readonly stage5xx: cloudwatch.Alarm;
  /** The two, in that order. */
  readonly alarms: readonly cloudwatch.Alarm[];
  /** 429 responses of the stage per 5 minutes (access log), when the stage logs. */
  readonly rateLimited?: cloudwatch.Metric;
  private readonly partnerApi: PartnerApi;

  /** @param scope the partner nested stack (`props.partnerApi`), or a construct in it */
  constructor(scope: Construct, id: string, props: PartnerAlarmsProps) {
    super(scope, id);
    if (Stack.of(this) !== props.partnerApi) throw new Error('PartnerAlarms belongs in the partner nested stack (see the module comment)');
    this.partnerApi = props.partnerApi;
    const period = Duration.minutes(5);
    const stage = props.partnerApi.api.deploymentStage;
    const authorizer = props.partnerApi.authorizerFunction;
    const mainStack = props.partnerApi.nestedStackParent ?? Stack.of(this);

    const refusals = countLinesNamed(this, 'AuthorizerRefusalsFilter', {
      logGroup: authorizer.logGroup,
      metricName: authorizerRefusalsMetricName(mainStack),
      pattern: logs.FilterPattern.allTerms(...AUTHORIZER_REFUSAL_TERMS),
      label: 'refusals',
    });
    this.authorizerErrors = new cloudwatch.Alarm(this, 'AuthorizerErrorsAlarm', {
      alarmDescription: withRunbook(
        this,
        `Partner authorizer: >= ${PARTNER_AUTHORIZER_ERRORS_THRESHOLD} Lambda errors other than key refusals (crash, timeout, table) in 5 min. Partner requests fail with 500.`,
        'partner-authorizer-errors',
      ),
      metric: new cloudwatch.MathExpression({
        expression: 'errors - FILL(refusals, 0)',
        usingMetrics: { errors: authorizer.fn.metricErrors({ period, statistic: 'Sum' }), refusals },
        period,
        label: 'authorizer errors (refusals excluded)',
      }),
      threshold: PARTNER_AUTHORIZER_ERRORS_THRESHOLD,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });

    const t = API_ALARM_THRESHOLDS;
    this.stage5xx = new cloudwatch.Alarm(this, 'Stage5xxAlarm', {
      alarmDescription: withRunbook(this, `Partner stage 5xx: >= ${t.api5xxMinCount} server errors and >= ${t.api5xxPercent}% of requests in 5 min.`, 'partner-api-5xx-errors'),
      metric: new cloudwatch.MathExpression({
        expression: `IF(errors >= ${t.api5xxMinCount}, 100 * errors / requests, 0)`,
        usingMetrics: { errors: stage.metricServerError({ period, statistic: 'Sum' }), requests: stage.metricCount({ period, statistic: 'Sum' }) },
        period,
        label: 'partner 5xx % of requests',
      }),
      threshold: t.api5xxPercent,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    this.alarms = [this.authorizerErrors, this.stage5xx];

    if (props.partnerApi.accessLogs) {
      this.rateLimited = countLinesNamed(this, 'RateLimitedFilter', {
        logGroup: props.partnerApi.accessLogs,
        metricName: `${mainStack.stackName}-Partner429`,
        pattern: logs.FilterPattern.stringValue('$.status', '=', '429'),
        label: 'stage 429 (usage plan throttle or quota)',
      });
    }
  }

  /** One dashboard row (24 wide): stage requests, 4xx and 5xx; latency; 429s; authorizer errors and refusals. */
  dashboardWidgets(): cloudwatch.IWidget[] {
    const stage = this.partnerApi.api.deploymentStage;
    const minute = { period: Duration.minutes(1) };
    const fiveMinutes = { period: Duration.minutes(5), statistic: 'Sum' };
    const authorizer = this.partnerApi.authorizerFunction.fn;
    const appRateLimited = new cloudwatch.Metric({
      namespace: SERVICE_NAMESPACE,
      metricName: 'RateLimited',
      dimensionsMap: { service: 'api-partner' },
      ...fiveMinutes,
      label: 'per-key limit (partner function)',
    });
    return [
      new cloudwatch.GraphWidget({
        title: 'Partner stage requests, 4xx, 5xx (per minute)',
        width: 6,
        left: [
          stage.metricCount({ ...minute, statistic: 'Sum', label: 'requests' }),
          stage.metricClientError({ ...minute, statistic: 'Sum', label: '4xx' }),
          stage.metricServerError({ ...minute, statistic: 'Sum', label: '5xx' }),
        ],
        leftYAxis: { min: 0, showUnits: false },
      }),
      new cloudwatch.GraphWidget({
        title: 'Partner stage latency (ms)',
        width: 6,
        left: [stage.metricLatency({ ...minute, statistic: 'p99', label: 'latency p99' }), stage.metricIntegrationLatency({ ...minute, statistic: 'p99', label: 'integration p99' })],
      }),
      new cloudwatch.GraphWidget({
        title: 'Partner throttles: 429s (per 5 min)',
        width: 6,
        left: [...(this.rateLimited ? [this.rateLimited] : []), appRateLimited],
        leftYAxis: { min: 0, showUnits: false },
      }),
      new cloudwatch.GraphWidget({
        title: 'Partner authorizer (per 5 min)',
        width: 6,
        left: [authorizer.metricInvocations({ ...fiveMinutes, label: 'invocations' }), authorizer.metricErrors({ ...fiveMinutes, label: 'errors (refusals included)' })],
        leftYAxis: { min: 0, showUnits: false },
      }),
    ];
  }
}

/**
 * lib/alarms/log-metric.ts `countLines`, with the metric named by the caller: in a nested stack `countLines` would name
 * it by the nested stack's own name, which is only known at deploy; these are named by the main stack.
 */
function countLinesNamed(scope: Construct, id: string, p: { logGroup: logs.ILogGroup; metricName: string; pattern: logs.IFilterPattern; label: string }): cloudwatch.Metric {
  const filter = new logs.MetricFilter(scope, id, { logGroup: p.logGroup, filterPattern: p.pattern, metricNamespace: LOG_METRICS_NAMESPACE, metricName: p.metricName, metricValue: '1', defaultValue: 0 });
  return filter.metric({ statistic: 'Sum', period: Duration.minutes(5), label: p.label });
}
