/**
 * `TransactionCoordinationStack`: the deployed service. One table, one Lambda per API group (bound to the
 * table with that group's actions), the HTTP API routing every operation, the webhook pipeline
 * (stream fan-out, delivery queue and worker), the extraction pipeline (documents bucket, S3 upload trigger,
 * Step Functions OCR + extraction), the messaging pipeline (SES, SMS, scheduled sends, inbound mail and texts,
 * public document links), workspace deletion and export (lib/workspace-lifecycle.ts), the on-call dashboard and
 * alarms, and the alarm topic every alarm notifies on ALARM and OK (lib/alarms/, runbook: docs/runbook.md).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AspectPriority, Aspects, CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type { Construct } from 'constructs';
import { LAMBDA_GROUPS, type Capability, type LambdaGroup } from '#api/types';
import { AlarmTopic, NotifyEveryAlarm } from './alarms/alarm-topic.ts';
import { ApiAlarms } from './alarms/api-alarms.ts';
import { TableAlarms } from './alarms/table-alarms.ts';
import { FunctionErrorAlarms } from './alarms/function-alarms.ts';
import { PartnerAlarms } from './alarms/partner-alarms.ts';
import { ServiceDashboard } from './dashboard.ts';
import { ExtractionPipeline } from './extraction-pipeline.ts';
import { MessagingPipeline } from './messaging-pipeline.ts';
import { parseMessagingSettings, type MessagingSettings } from './messaging/settings.ts';
import { PUBLIC_ROUTES } from './public-routes.ts';
import { pascal, ServiceHttpApi, type ServiceHttpApiProps } from './http-api.ts';
import { bundlesXraySdk, ServiceFunction } from './service-function.ts';
import { lazyModulesOf } from './bundling/lazy-modules.ts';
import { ServiceTable } from './table.ts';
import { DataKey } from './data-key.ts';
import { signingKeyWriteDeny, tableAccessOf, type MessagingWorker, type WebhookWorker } from './table-access.ts';
import { writeGroupEntries } from './group-entries.ts';
import type { ModuleOperation } from './registry.ts';
import { WebhookPipeline, type WebhookPipelineProps } from './webhook-pipeline.ts';
import { ReferenceSite } from './reference-site.ts';
import { McpEndpoint } from './mcp-endpoint.ts';
import { OAuthServer } from './oauth-server.ts';
import { PartnerApi } from './partner-api.ts';
import { WorkspaceLifecycle, type LifecycleWorker } from './workspace-lifecycle.ts';
import { ReportBuilder, type ReportWorkerName } from './report-builder.ts';
import { recordRetentionYearsOf, TableBackupPlan, tableBackupYearsOf } from './retention.ts';

/** Repository root (the directory holding `functions/`), resolved from this file so cwd does not matter. */
const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Handler module of a worker: `functions/<name>/handler.ts` (exports `handler`). */
export const handlerEntryOf = (name: WebhookWorker | MessagingWorker | LifecycleWorker | ReportWorkerName): string => path.join(PROJECT_ROOT, 'functions', name, 'handler.ts');

/** Stack props plus the few deployment knobs `configureApp` reads from context. */
export interface TransactionCoordinationStackProps extends StackProps {
  /** Every operation (lib/registry.ts `loadOperations`): one function per group, one route per operation. */
  readonly operations: readonly ModuleOperation[];
  /** Table deletion protection. Default true. */
  readonly tableDeletionProtection?: boolean;
  /** Address subscribed by email to the alarm topic (context `alarmEmail`). Default none. */
  readonly alarmEmail?: string;
  /** Further notification targets of every alarm, besides the alarm topic (e.g. an existing paging topic). Default none. */
  readonly alarmActions?: readonly cloudwatch.IAlarmAction[];
  /** Webhook pipeline knobs (delivery concurrency, retry schedule, breaker threshold). Default: code defaults. */
  readonly webhooks?: Pick<WebhookPipelineProps, 'deliveryConcurrency' | 'deliveryReservedConcurrency' | 'retrySchedule' | 'breakerThreshold' | 'pushPlatformApplicationArn'>;
  /** Senders, inbound domain, SMS origination identity, public base URL (lib/messaging/settings.ts). Default: its defaults. */
  readonly messaging?: MessagingSettings;
  /** The HTTP API's edge settings (lib/http-api.ts): CORS origins and the optional custom domain. */
  readonly edge?: Pick<ServiceHttpApiProps, 'corsAllowOrigins' | 'customDomain'>;
}

/**
 * The service stack. Outputs `ApiUrl` (invoke URL, trailing `/`), `ApiDomainTarget` and `ApiDomainHostedZoneId`
 * (with a custom domain), `TableName`, `DocumentsBucketName`,
 * `ExtractionStateMachineArn`, the messaging set-up values (`MailConfigurationSetName`, `InboundMailActivateCommand`
 * with a mail domain, `InboundSmsTopicArn`, `MailDkim1..3` with `mailDomain`), and what docs/runbook.md reads
 * (`WebhookDeliveryQueueUrl`, `WebhookDeliveryDlqUrl`, `WebhookFanoutDlqUrl`, `WorkerFailuresQueueUrl`,
 * `SchedulerDlqUrl`, `ScheduleGroupName`). Every function is invoked through its `live` alias with safe deployments
 * (lib/safe-deployments.ts); the HTTP routes are a nested stack (lib/http-api.ts). Functions are named by
 * CloudFormation; one per group that has operations, built from its generated entry (lib/group-entries.ts) and
 * granted what its operations' capabilities ask, plus the two webhook workers (`functions/webhook-fanout`,
 * `functions/webhook-delivery`), the six extraction steps (`functions/extraction-steps/*.ts`), the upload
 * trigger (`functions/document-uploaded/handler.ts`), the five messaging workers (lib/messaging-pipeline.ts) and
 * the workspace purge and export workers (lib/workspace-lifecycle.ts).
 */
export class TransactionCoordinationStack extends Stack {
  /** The customer-managed key of the data at rest (lib/data-key.ts). */
  readonly dataKey: DataKey;
  /** The single table (`.table` is the `dynamodb.Table`). */
  readonly table: ServiceTable;
  /** One function per API group that has operations. */
  readonly functions: ReadonlyMap<LambdaGroup, ServiceFunction>;
  /** The OAuth 2.1 authorization server: signing key (KMS) and its function. */
  readonly oauth: OAuthServer;
  /** The partner tier's REST API stage with its usage plan and authorizer (a nested stack); absent without partner operations. */
  readonly partnerApi?: PartnerApi;
  /** HTTP API with one route per operation plus `$default`. */
  readonly httpApi: ServiceHttpApi;
  /** The MCP endpoint at `/mcp` on the HTTP API (lib/mcp-endpoint.ts). */
  readonly mcp: McpEndpoint;
  /** Outbox stream → fan-out → delivery queue → delivery worker. Its functions are not API groups. */
  readonly webhooks: WebhookPipeline;
  /** Documents bucket → upload trigger → extraction state machine and its step functions (not API groups). */
  readonly extraction: ExtractionPipeline;
  /** SES, SMS, EventBridge Scheduler and the messaging workers (not API groups). */
  readonly messaging: MessagingPipeline;
  /** Workspace deletion and export: the purge and export workers, targets of the messaging scheduler. */
  readonly lifecycle: WorkspaceLifecycle;
  /** The report workers (PDF, ZIP) the reports API group invokes (lib/report-builder.ts). */
  readonly reports: ReportBuilder;
  /** On-call dashboard and alarms (`dashboard.alarms`). */
  readonly dashboard: ServiceDashboard;
  /** API alarms: 5xx without 501, p99 latency, 4xx and 429 surges, API function throttles. */
  readonly apiAlarms: ApiAlarms;
  /** DynamoDB system errors and throttled requests. */
  readonly tableAlarms: TableAlarms;
  /** Errors alarms of the OAuth server, the reference site, the extraction steps and the workspace workers. */
  readonly functionAlarms: FunctionErrorAlarms;
  /** The partner tier's alarms (authorizer errors, stage 5xx) and dashboard row; absent without the partner tier. */
  readonly partnerAlarms?: PartnerAlarms;
  /** SNS topic every alarm notifies on ALARM and OK (wired by the `NotifyEveryAlarm` aspect). */
  readonly alarmTopic: AlarmTopic;
  /** The table's AWS Backup plan (context `tableBackupPlan=true`, lib/retention.ts), or undefined. */
  readonly tableBackup?: TableBackupPlan;

  constructor(scope: Construct, id: string, props: TransactionCoordinationStackProps) {
    super(scope, id, props);

    this.dataKey = new DataKey(this, 'DataKey');
    this.table = new ServiceTable(this, 'Data', { deletionProtection: props.tableDeletionProtection ?? true, encryptionKey: this.dataKey.key });
    const backupYears = tableBackupYearsOf(this); // throws on a malformed value
    if (backupYears !== undefined) this.tableBackup = new TableBackupPlan(this, 'TableBackup', { table: this.table.table, retentionYears: backupYears, encryptionKey: this.dataKey.key });

    const ops = props.operations;
    const groups = LAMBDA_GROUPS.filter((g) => ops.some((op) => op.group === g));
    const entries = writeGroupEntries(ops, groups);
    const functions = new Map<LambdaGroup, ServiceFunction>();
    for (const group of groups) {
      const fn = new ServiceFunction(this, `${pascal(group)}Api`, {
        entry: entries.get(group)!,
        description: `API group ${group} (functions/${group}/)`,
        serviceName: `api-${group}`,
        deployment: 'api',
        xraySdk: bundlesXraySdk(),
        lazyModules: lazyModulesOf(group),
      });
      fn.bindTable(this.table.table, tableAccessOf(ops.filter((op) => op.group === group)));
      fn.fn.addToRolePolicy(signingKeyWriteDeny(this.table.table.tableArn));
      functions.set(group, fn);
    }
    this.functions = functions;

    this.webhooks = new WebhookPipeline(this, 'Webhooks', {
      table: this.table.table,
      entryOf: handlerEntryOf,
      dataKey: this.dataKey,
      ...props.webhooks,
    });

    this.extraction = new ExtractionPipeline(this, 'Extraction', {
      table: this.table.table,
      entryOf: (relativePath) => path.join(PROJECT_ROOT, relativePath),
      dataKey: this.dataKey,
      recordRetentionYears: recordRetentionYearsOf(this), // throws on a malformed value
      corsAllowOrigins: props.edge?.corsAllowOrigins,
    });

    const messagingSettings = props.messaging ?? parseMessagingSettings({});
    this.messaging = new MessagingPipeline(this, 'Messaging', {
      table: this.table.table,
      entryOf: handlerEntryOf,
      extraction: this.extraction,
      dataKey: this.dataKey,
      settings: messagingSettings,
    });

    this.oauth = new OAuthServer(this, 'OAuth', { table: this.table.table, entry: path.join(PROJECT_ROOT, 'functions', 'oauth', 'handler.ts') });
    const publicFunctionOf = (worker: (typeof PUBLIC_ROUTES)[number]['worker']) => (worker === 'oauth' ? this.oauth.fn : this.messaging.workers[worker]);

    this.httpApi = new ServiceHttpApi(this, 'Http', {
      operations: ops,
      functionOf: (group) => {
        const fn = functions.get(group);
        if (!fn) throw new Error(`no function for Lambda group ${group}`);
        return fn.live;
      },
      publicRoutes: PUBLIC_ROUTES,
      publicFunctionOf: (worker) => publicFunctionOf(worker).live,
      ...props.edge,
    });
    const reference = new ReferenceSite(this, 'Reference', { httpApi: this.httpApi.api, operations: ops });
    this.mcp = new McpEndpoint(this, 'Mcp', { httpApi: this.httpApi, operations: ops });
    const partnerFn = functions.get('partner');
    if (partnerFn) {
      this.partnerApi = new PartnerApi(this, 'PartnerTier', {
        partnerFunction: partnerFn.live,
        operations: ops.filter((op) => op.group === 'partner'),
        table: this.table.table,
        authorizerEntry: path.join(PROJECT_ROOT, 'functions', 'partner-authorizer', 'handler.ts'),
      });
      new CfnOutput(this, 'PartnerApiUrl', { value: this.partnerApi.api.url, description: 'Partner stage (REST API, usage plan): <url>api/v1/orgs' });
      new CfnOutput(this, 'PartnerUsagePlanId', { value: this.partnerApi.usagePlan.usagePlanId, description: "Usage plan that partner keys' API keys join (npm run admin -- partner key-usage)" });
    }
    const publicBaseUrl = messagingSettings.publicBaseUrl ?? this.httpApi.api.apiEndpoint;

    // Its workers become schedule targets; the outbox relay (webhook fan-out) gets every target's ARN (grantManage).
    this.lifecycle = new WorkspaceLifecycle(this, 'Lifecycle', {
      table: this.table.table,
      documentsBucket: this.extraction.bucket,
      dataKey: this.dataKey,
      entryOf: handlerEntryOf,
      messaging: this.messaging,
    });
    // Schedule writes go behind the outbox (issue 24): the relay creates and deletes schedules, no API group does.
    this.messaging.scheduler.grantManage(this.webhooks.fanout);
    this.reports = new ReportBuilder(this, 'Reports', { table: this.table.table, documentsBucket: this.extraction.bucket, dataKey: this.dataKey, entryOf: handlerEntryOf });
    // A failed upload notification would otherwise be dropped after Lambda's retries, leaving a document with no
    // extraction job: keep it for a replay.
    this.messaging.catchFailures(this.extraction.uploadHandler);

    for (const [group, fn] of functions) {
      const uses = new Set<Capability>(ops.filter((op) => op.group === group).flatMap((op) => op.uses));
      if (uses.has('documents:read') || uses.has('documents:write')) this.extraction.grantDocuments(fn, { read: uses.has('documents:read'), write: uses.has('documents:write') });
      if (uses.has('extraction:start')) this.extraction.grantStartExtraction(fn);
      if (uses.has('reports:build')) this.reports.grantBuild(fn);
      this.messaging.grantCapabilities(fn, uses, publicBaseUrl);
      // Any operation accepts an OAuth access token: every API function verifies them, with one issuer, against the
      // public key the OAuth function published in the table (no KMS access: lib/oauth-server.ts).
      fn.fn.addEnvironment('OAUTH_ISSUER', publicBaseUrl);
    }
    // The sign-in page mails one-time codes.
    this.messaging.grantCapabilities(this.oauth.fn, new Set<Capability>(['mail:send']), publicBaseUrl);
    this.oauth.fn.fn.addEnvironment('OAUTH_ISSUER', publicBaseUrl);

    const apiAlarms = (this.apiAlarms = new ApiAlarms(this, 'ApiAlarms', {
      api: this.httpApi.api,
      accessLogs: this.httpApi.accessLogs,
      functions: [
        ...[...functions].map(([group, f]) => ({ label: group, fn: f.fn })),
        ...[...new Set(PUBLIC_ROUTES.map((r) => r.worker))].map((worker) => ({ label: worker, fn: publicFunctionOf(worker).fn })),
      ],
    }));
    const tableAlarms = (this.tableAlarms = new TableAlarms(this, 'TableAlarms', { table: this.table.table }));
    const functionAlarms = (this.functionAlarms = new FunctionErrorAlarms(this, 'FunctionAlarms', {
      oauth: this.oauth.fn.fn,
      reference: reference.fn,
      extractionSteps: Object.entries(this.extraction.steps).map(([step, f]) => ({ label: step, fn: f.fn })),
      workspaceWorkers: [
        { label: 'purge', fn: this.lifecycle.purge.fn },
        { label: 'export', fn: this.lifecycle.export.fn },
      ],
    }));
    // In the partner nested stack, with the authorizer's deployment group (lib/alarms/partner-alarms.ts).
    if (this.partnerApi) this.partnerAlarms = new PartnerAlarms(this.partnerApi, 'Alarms', { partnerApi: this.partnerApi });
    this.dashboard = new ServiceDashboard(this, 'OnCall', {
      functions: [...functions].map(([group, f]) => ({ group, fn: f.fn })),
      api: this.httpApi.api,
      table: this.table.table,
      sections: [
        { alarms: apiAlarms.alarms, widgets: apiAlarms.dashboardWidgets() },
        { alarms: tableAlarms.alarms, widgets: [] },
        { alarms: this.webhooks.alarms, widgets: this.webhooks.dashboardWidgets() },
        { alarms: this.extraction.alarms, widgets: this.extraction.dashboardWidgets() },
        { alarms: this.messaging.alarms, widgets: this.messaging.dashboardWidgets() },
        { alarms: functionAlarms.alarms, widgets: [] },
        { alarms: [this.reports.errorsAlarm], widgets: [] },
        { alarms: [this.mcp.errorsAlarm], widgets: [] },
        ...(this.partnerAlarms ? [{ alarms: this.partnerAlarms.alarms, widgets: this.partnerAlarms.dashboardWidgets() }] : []),
      ],
    });

    this.addRollbackAlarms(publicFunctionOf);

    // Last, and at synthesis: every alarm of the stack, including any added after this line, notifies the topic.
    this.alarmTopic = new AlarmTopic(this, 'AlarmTopic', { masterKey: this.messaging.topicKey, email: props.alarmEmail });
    Aspects.of(this).add(new NotifyEveryAlarm([this.alarmTopic.action, ...(props.alarmActions ?? [])]), { priority: AspectPriority.MUTATING });

    new CfnOutput(this, 'AlarmTopicArn', { value: this.alarmTopic.topic.topicArn, description: 'SNS topic every alarm notifies (ALARM and OK)' });
    new CfnOutput(this, 'ApiUrl', { value: this.httpApi.url, description: 'Invoke URL of the HTTP API ($default stage, or its custom domain)' });
    if (this.httpApi.customDomain) {
      const domain = this.httpApi.customDomain;
      new CfnOutput(this, 'ApiDomainTarget', { value: domain.regionalDomainName, description: `CNAME target of ${domain.name} (or a Route 53 alias in ApiDomainHostedZoneId)` });
      new CfnOutput(this, 'ApiDomainHostedZoneId', { value: domain.regionalHostedZoneId, description: 'Hosted zone id of ApiDomainTarget, for a Route 53 alias record' });
    }
    new CfnOutput(this, 'DataKeyArn', { value: this.dataKey.key.keyArn, description: 'KMS key of the data at rest; create mail secrets with --kms-key-id set to it' });
    new CfnOutput(this, 'TableName', { value: this.table.table.tableName, description: 'The single DynamoDB table' });
    new CfnOutput(this, 'DocumentsBucketName', { value: this.extraction.bucket.bucketName, description: 'Uploaded documents and OCR blocks files' });
    new CfnOutput(this, 'ExtractionStateMachineArn', { value: this.extraction.stateMachine.stateMachineArn, description: 'Contract-extraction state machine' });
    new CfnOutput(this, 'MailConfigurationSetName', { value: this.messaging.mail.configurationSet.configurationSetName, description: 'SES configuration set every email is sent in' });
    // What docs/runbook.md reads with `aws cloudformation describe-stacks` (its "Before you start" section).
    new CfnOutput(this, 'WebhookDeliveryQueueUrl', { value: this.webhooks.queue.queueUrl, description: 'Webhook delivery queue (redrive target of the delivery DLQ)' });
    new CfnOutput(this, 'WebhookDeliveryDlqUrl', { value: this.webhooks.deadLetterQueue.queueUrl, description: 'Webhook deliveries whose attempts are spent' });
    new CfnOutput(this, 'WebhookFanoutDlqUrl', { value: this.webhooks.fanoutDeadLetterQueue.queueUrl, description: 'Stream batches webhook fan-out gave up on (shard and sequence range)' });
    new CfnOutput(this, 'WorkerFailuresQueueUrl', { value: this.messaging.failureQueue.queueUrl, description: 'Failed asynchronous invocations of the messaging and workspace workers (request payload and error)' });
    new CfnOutput(this, 'SchedulerDlqUrl', { value: this.messaging.scheduler.deadLetterQueue.queueUrl, description: 'Schedules EventBridge Scheduler could not deliver' });
    new CfnOutput(this, 'ScheduleGroupName', { value: this.messaging.scheduler.group.scheduleGroupName, description: 'EventBridge Scheduler group of the scheduled messages, purges and exports' });
  }

  /**
   * Safe deployments (lib/safe-deployments.ts): each function's deployment rolls back on the alarm its own traffic
   * feeds. API groups and the public-route workers: the API 5xx alarm; webhook and messaging workers: their worker
   * errors alarms; extraction steps: system failures (not their errors alarm, which counts users' unreadable documents
   * too); the upload trigger: its errors; workspace purge and export (rare, scheduled): the worker-failures queue and
   * their errors; the OAuth server and the partner authorizer: their errors too. Nothing to do with safe deployments off.
   */
  private addRollbackAlarms(publicFunctionOf: (worker: (typeof PUBLIC_ROUTES)[number]['worker']) => ServiceFunction): void {
    const alarmOf = (owner: Construct, id: string): cloudwatch.IAlarm => {
      const alarm = owner.node.tryFindChild(id);
      if (!(alarm instanceof cloudwatch.Alarm)) throw new Error(`${owner.node.path} has no alarm ${id}`);
      return alarm;
    };
    const api5xx = alarmOf(this.apiAlarms, 'Api5xxAlarm');
    for (const fn of this.functions.values()) fn.addRollbackAlarm(api5xx);
    for (const worker of new Set(PUBLIC_ROUTES.map((r) => r.worker))) publicFunctionOf(worker).addRollbackAlarm(api5xx);
    for (const fn of [this.webhooks.fanout, this.webhooks.delivery]) fn.addRollbackAlarm(alarmOf(this.webhooks, 'WorkerErrorsAlarm'));
    for (const fn of Object.values(this.messaging.workers)) fn.addRollbackAlarm(alarmOf(this.messaging, 'WorkerErrorsAlarm'));
    for (const fn of Object.values(this.extraction.steps)) fn.addRollbackAlarm(alarmOf(this.extraction, 'SystemFailuresAlarm'));
    this.extraction.uploadHandler.addRollbackAlarm(alarmOf(this.extraction, 'UploadHandlerErrorsAlarm'));
    for (const fn of [this.lifecycle.purge, this.lifecycle.export]) fn.addRollbackAlarm(alarmOf(this.messaging, 'WorkerFailuresAlarm'), this.functionAlarms.workspaceWorkers);
    this.oauth.fn.addRollbackAlarm(this.functionAlarms.oauth);
    if (this.partnerApi && this.partnerAlarms) this.partnerApi.authorizerFunction.addRollbackAlarm(this.partnerAlarms.authorizerErrors);
  }
}
