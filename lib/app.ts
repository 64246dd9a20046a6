/**
 * Wires the CDK app: the service stack (named by context) and the cdk-nag AWS Solutions pack. Shared by
 * `bin/app.ts` and the infra tests, so the tests check exactly what `cdk synth` builds.
 */
import { type App, Validations } from 'aws-cdk-lib';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { AwsSolutionsChecks } from 'cdk-nag';
import { parseMessagingSettings } from './messaging/settings.ts';
import { corsOriginsOf } from './edge-settings.ts';
import { TransactionCoordinationStack, type TransactionCoordinationStackProps } from './stack.ts';
import type { ModuleOperation } from './registry.ts';

/** Default CloudFormation stack name (context `stackName` overrides it). */
export const DEFAULT_STACK_NAME = 'tcs-dev';

/**
 * Adds the stack (one route per operation of `operations`, from lib/registry.ts) and cdk-nag to `app`. Context read:
 * - `stackName` (string, default `tcs-dev`)
 * - `tableDeletionProtection` (`false` to allow deleting the table; default true)
 * - `alarmEmail` (email address subscribed to the stack's alarm topic; default none)
 * - `alarmTopicArn` (an existing SNS topic every alarm notifies too, e.g. a central paging topic; default none)
 * - `runbookBaseUrl` (address of docs/runbook.md that alarm descriptions link to; default `docs/runbook.md`)
 * - `webhookConcurrency` (most webhook delivery functions at once, the SQS event source's maximum concurrency,
 *   integer 2–1000; default 10) and `webhookReservedConcurrency` (opt-in reserved concurrency, ≥ that; default none)
 * - `pushPlatformApplicationArn` (an SNS mobile-push platform application for device notifications; default none)
 * - `corsAllowOrigins` (origins browser clients may call the API from, comma-separated, or `*`; default `*`)
 * - `apiDomainName` + `apiCertificateArn` (a custom domain for the API and its ACM certificate; default none)
 * - `webhookRetrySchedule` (retry delays in seconds, comma-separated, e.g. `60,300,1800`; default the code's
 *   schedule in shared/events/retry-schedule.ts; also sets the delivery queue's `maxReceiveCount`)
 * - `webhookBreakerThreshold` (consecutive failures that pause a subscription; default unset: code default 20)
 * - messaging: `mailDomain`, `mailFromAddress`, `inboundMailDomain`, `mailSenderIdentities`,
 *   `smsOriginationIdentity`, `smsOptOutList`, `publicBaseUrl` (meanings and defaults: lib/messaging/settings.ts);
 *   the SES receipt rule set is created only with `mailDomain` or `inboundMailDomain`
 * - `safeDeployments` (`false` for dev stacks: functions deploy to $LATEST, no versions, `live` aliases or CodeDeploy;
 *   default true: lib/safe-deployments.ts)
 * - `apiGatewayCloudWatchRole` (`true`: the stack sets API Gateway's account-wide CloudWatch role, retained on
 *   destroy, and the partner stage logs; `existing`: the account has one, the stage logs; default unset: no stage
 *   logging, no account change: lib/partner-api.ts)
 * - `recordRetentionYears` (whole years, 1–100, that replaced or deleted documents are kept, archived; default 5:
 *   lib/retention.ts)
 * - `tableBackupPlan` (`true` adds an AWS Backup plan for the table; default false) and `tableBackupRetentionYears`
 *   (years its monthly backups are kept; default `recordRetentionYears`)
 * cdk-nag 3 is a policy-validation plugin: it runs at `app.synth()` and fails synthesis on any
 * unacknowledged error (report in `cdk.out/policy-validation-report.json`).
 */
export function configureApp(app: App, operations: readonly ModuleOperation[]): TransactionCoordinationStack {
  const stackName = String(app.node.tryGetContext('stackName') ?? DEFAULT_STACK_NAME);
  const protection = app.node.tryGetContext('tableDeletionProtection');
  const alarmTopicArn = app.node.tryGetContext('alarmTopicArn') as string | undefined;
  const alarmEmail = app.node.tryGetContext('alarmEmail') as unknown;
  const concurrency = app.node.tryGetContext('webhookConcurrency');
  const reserved = app.node.tryGetContext('webhookReservedConcurrency');
  const retrySchedule = app.node.tryGetContext('webhookRetrySchedule');
  const breakerThreshold = app.node.tryGetContext('webhookBreakerThreshold');
  const context = (key: string): unknown => app.node.tryGetContext(key);
  const messaging = parseMessagingSettings({
    mailDomain: context('mailDomain'),
    mailFromAddress: context('mailFromAddress'),
    inboundMailDomain: context('inboundMailDomain'),
    mailSenderIdentities: context('mailSenderIdentities'),
    smsOriginationIdentity: context('smsOriginationIdentity'),
    smsOptOutList: context('smsOptOutList'),
    publicBaseUrl: context('publicBaseUrl'),
  }); // throws on a malformed value

  const stack = new TransactionCoordinationStack(app, 'TransactionCoordinationStack', {
    stackName,
    description: 'Transaction-coordination service: HTTP API, Lambda, DynamoDB',
    env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
    operations,
    tableDeletionProtection: !(protection === false || protection === 'false'),
    webhooks: {
      // `-c key=value` gives strings; cdk.json may give numbers. The pipeline validates the values.
      deliveryConcurrency: concurrency === undefined ? undefined : Number(concurrency),
      deliveryReservedConcurrency: reserved === undefined ? undefined : Number(reserved),
      pushPlatformApplicationArn: context('pushPlatformApplicationArn') ? String(context('pushPlatformApplicationArn')) : undefined,
      retrySchedule: retrySchedule === undefined ? undefined : String(retrySchedule),
      breakerThreshold: breakerThreshold === undefined ? undefined : Number(breakerThreshold),
    },
    messaging,
    edge: edgeSettings(context),
    alarmEmail: alarmEmail === undefined || alarmEmail === '' ? undefined : String(alarmEmail), // AlarmTopic validates it
    alarmActions: alarmTopicArn ? [new ImportedTopicAction(alarmTopicArn)] : [],
  });

  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return stack;
}

/**
 * The HTTP API's edge context: `corsAllowOrigins` (comma-separated origins or `*`; default `*`), and
 * `apiDomainName` with `apiCertificateArn` (an ACM certificate in the stack's region) for a custom domain.
 * @throws Error (at synth) on a malformed origin, or one of the two domain keys without the other
 */
function edgeSettings(context: (key: string) => unknown): NonNullable<TransactionCoordinationStackProps['edge']> {
  const domainName = context('apiDomainName');
  const certificateArn = context('apiCertificateArn');
  if (Boolean(domainName) !== Boolean(certificateArn)) throw new Error('apiDomainName and apiCertificateArn go together: give both or neither');
  if (certificateArn && !/^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/[0-9a-f-]+$/.test(String(certificateArn))) {
    throw new Error(`apiCertificateArn is not an ACM certificate ARN: ${String(certificateArn)}`);
  }
  return {
    corsAllowOrigins: corsOriginsOf(context('corsAllowOrigins')),
    ...(domainName ? { customDomain: { domainName: String(domainName), certificateArn: String(certificateArn) } } : {}),
  };
}

/** An alarm action that notifies an existing SNS topic by ARN (context `alarmTopicArn`); no construct is imported. */
class ImportedTopicAction implements cloudwatch.IAlarmAction {
  constructor(private readonly topicArn: string) {}

  bind(): cloudwatch.AlarmActionConfig {
    return { alarmActionArn: this.topicArn };
  }
}
