/**
 * Lambda `Errors` alarms (AWS/Lambda, the function's every version) for the functions no pipeline alarms on by
 * itself: the OAuth server, the reference-site function, the six extraction steps and the workspace purge and export
 * workers (issue 27). The API groups' alarms are lib/dashboard.ts's, the webhook, messaging and upload workers' their
 * pipelines', the partner authorizer's lib/alarms/partner-alarms.ts; test/infra/function-alarms.test.ts fails when any
 * function of the app has none.
 */
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { withRunbook, type RunbookAnchor } from './runbook.ts';

/** CloudWatch alarms take at most 10 metrics. */
const MAX_METRICS = 10;

/** A function and the label it has in descriptions and graphs. */
export interface LabelledFunction {
  readonly label: string;
  readonly fn: lambda.IFunction;
}

/** Inputs of `lambdaErrorsAlarm`. */
export interface LambdaErrorsAlarmProps {
  /** 1 to 10 functions; their `Errors` are summed. */
  readonly functions: readonly LabelledFunction[];
  /** What the alarm means (the runbook link is appended). */
  readonly description: string;
  readonly anchor: RunbookAnchor;
  /** Errors (sum over `period`) at or above which it alarms. */
  readonly threshold: number;
  /** Default 5 minutes. */
  readonly period?: Duration;
}

/**
 * One alarm on the summed Lambda `Errors` (crashes, timeouts, out-of-memory, thrown errors) of `functions`, at or
 * above `threshold` in one `period`; missing data (no invocations) is not breaching.
 * @throws Error when `functions` is empty or longer than 10
 */
export function lambdaErrorsAlarm(scope: Construct, id: string, props: LambdaErrorsAlarmProps): cloudwatch.Alarm {
  const fns = props.functions;
  if (fns.length === 0 || fns.length > MAX_METRICS) throw new Error(`${id}: an errors alarm sums 1 to ${MAX_METRICS} functions (got ${fns.length})`);
  const period = props.period ?? Duration.minutes(5);
  const errors = (fn: lambda.IFunction) => fn.metricErrors({ period, statistic: 'Sum' });
  const metric =
    fns.length === 1
      ? errors(fns[0].fn)
      : new cloudwatch.MathExpression({
          expression: fns.map((_f, i) => `e${i}`).join(' + '),
          usingMetrics: Object.fromEntries(fns.map((f, i) => [`e${i}`, errors(f.fn)])),
          period,
          label: 'errors',
        });
  return new cloudwatch.Alarm(scope, id, {
    alarmDescription: withRunbook(scope, props.description, props.anchor),
    metric,
    threshold: props.threshold,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    evaluationPeriods: 1,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  });
}

/**
 * Thresholds (errors at or above, per period):
 * - OAuth server and reference site: 3 in 5 min, as the API functions (lib/dashboard.ts).
 * - Extraction steps: 10 in 15 min. A step also fails (a Lambda error) on a user's document (`encrypted_pdf`,
 *   `not_pdf`, …: functions/extraction-steps/step.ts), so a few are normal; system failures of whole executions have
 *   their own alarm (`Extraction/SystemFailuresAlarm`). This one sees crashes, timeouts and OOMs that a retry hid.
 * - Workspace purge and export: 1 in 15 min. They run rarely, for one organization each, for up to 15 minutes: any
 *   error is a workspace not purged or an export not sent (Lambda retries twice, then the failure queue).
 */
export const FUNCTION_ALARM_THRESHOLDS = { oauthErrors: 3, referenceErrors: 3, extractionStepErrors: 10, workspaceWorkerErrors: 1 } as const;

/** Inputs of `FunctionErrorAlarms`. */
export interface FunctionErrorAlarmsProps {
  /** functions/oauth (the OAuth 2.1 server). */
  readonly oauth: lambda.IFunction;
  /** The reference-site function (lib/reference-site.ts). */
  readonly reference: lambda.IFunction;
  /** The extraction state machine's task functions, labelled by state. */
  readonly extractionSteps: readonly LabelledFunction[];
  /** workspace-purge and workspace-export. */
  readonly workspaceWorkers: readonly LabelledFunction[];
}

/** The errors alarms of the OAuth server, the reference site, the extraction steps and the workspace workers. */
export class FunctionErrorAlarms extends Construct {
  readonly oauth: cloudwatch.Alarm;
  readonly reference: cloudwatch.Alarm;
  readonly extractionSteps: cloudwatch.Alarm;
  readonly workspaceWorkers: cloudwatch.Alarm;
  /** The four, in that order. */
  readonly alarms: readonly cloudwatch.Alarm[];

  constructor(scope: Construct, id: string, props: FunctionErrorAlarmsProps) {
    super(scope, id);
    const t = FUNCTION_ALARM_THRESHOLDS;
    const fifteenMinutes = Duration.minutes(15);
    this.oauth = lambdaErrorsAlarm(this, 'OAuthServerErrorsAlarm', {
      functions: [{ label: 'oauth', fn: props.oauth }],
      description: `OAuth server: >= ${t.oauthErrors} Lambda errors (crash, timeout, OOM) in 5 min. Sign-in, consent, token and discovery requests fail with 5xx.`,
      anchor: 'oauth-server-errors',
      threshold: t.oauthErrors,
    });
    this.reference = lambdaErrorsAlarm(this, 'ReferenceSiteErrorsAlarm', {
      functions: [{ label: 'reference', fn: props.reference }],
      description: `Reference site (GET /docs, /openapi.json): >= ${t.referenceErrors} Lambda errors in 5 min.`,
      anchor: 'reference-site-errors',
      threshold: t.referenceErrors,
    });
    this.extractionSteps = lambdaErrorsAlarm(this, 'ExtractionStepErrorsAlarm', {
      functions: props.extractionSteps,
      description:
        `Extraction steps: >= ${t.extractionStepErrors} Lambda errors in 15 min (${props.extractionSteps.map((s) => s.label).join(', ')}). ` +
        "A user's unreadable document fails a step too; many at once, or any MarkFailed error, is a system problem.",
      anchor: 'extraction-step-errors',
      threshold: t.extractionStepErrors,
      period: fifteenMinutes,
    });
    this.workspaceWorkers = lambdaErrorsAlarm(this, 'WorkspaceWorkerErrorsAlarm', {
      functions: props.workspaceWorkers,
      description: `Workspace ${props.workspaceWorkers.map((w) => w.label).join(' or ')} failed (a Lambda error in 15 min): a workspace may be left unpurged, or an export unsent. Lambda retries twice, then the failure queue keeps the event.`,
      anchor: 'workspace-worker-errors',
      threshold: t.workspaceWorkerErrors,
      period: fifteenMinutes,
    });
    this.alarms = [this.oauth, this.reference, this.extractionSteps, this.workspaceWorkers];
  }
}
