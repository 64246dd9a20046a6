/**
 * `TransactionCoordinationStack`: the deployed service. One table, one Lambda per manifest group (bound to the
 * table with that group's actions), the HTTP API routing every manifest operation, the webhook pipeline
 * (stream fan-out, delivery queue and worker), the extraction pipeline (documents bucket, S3 upload trigger,
 * Step Functions OCR + extraction), and the on-call dashboard.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type { Construct } from 'constructs';
import { lambdaGroups } from '#api/operations';
import type { LambdaGroup } from '#api/types';
import { ServiceDashboard } from './dashboard.ts';
import { ExtractionPipeline } from './extraction-pipeline.ts';
import { pascal, ServiceHttpApi } from './http-api.ts';
import { ServiceFunction } from './service-function.ts';
import { ServiceTable } from './table.ts';
import { tableAccessOf, type WebhookWorker } from './table-access.ts';
import { WebhookPipeline, type WebhookPipelineProps } from './webhook-pipeline.ts';

/** Repository root (the directory holding `functions/`), resolved from this file so cwd does not matter. */
const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Handler module of a group or worker: `functions/<name>/handler.ts` (exports `handler`). */
export const handlerEntryOf = (name: LambdaGroup | WebhookWorker): string => path.join(PROJECT_ROOT, 'functions', name, 'handler.ts');

/** Groups whose API operations read and write documents in the bucket (presigned URLs, base64 uploads). */
export const DOCUMENT_API_GROUPS: readonly LambdaGroup[] = ['documents', 'extractions'];

/** Stack props plus the few deployment knobs `configureApp` reads from context. */
export interface TransactionCoordinationStackProps extends StackProps {
  /** Table deletion protection. Default true. */
  readonly tableDeletionProtection?: boolean;
  /** Alarm notification targets. Default none. */
  readonly alarmActions?: readonly cloudwatch.IAlarmAction[];
  /** Webhook pipeline knobs (delivery concurrency, retry schedule, breaker threshold). Default: code defaults. */
  readonly webhooks?: Pick<WebhookPipelineProps, 'deliveryConcurrency' | 'retrySchedule' | 'breakerThreshold'>;
}

/**
 * The service stack. Outputs `ApiUrl` (invoke URL, trailing `/`), `TableName`, `DocumentsBucketName` and
 * `ExtractionStateMachineArn`. Functions are named by CloudFormation and built from `functions/<group>/handler.ts`,
 * one per group in `lambdaGroups`, plus the two webhook workers (`functions/webhook-fanout`,
 * `functions/webhook-delivery`), the six extraction steps (`functions/extraction-steps/*.ts`) and the upload
 * trigger (`functions/document-uploaded/handler.ts`).
 */
export class TransactionCoordinationStack extends Stack {
  /** The single table (`.table` is the `dynamodb.Table`). */
  readonly table: ServiceTable;
  /** One function per Lambda group of the manifest. */
  readonly functions: ReadonlyMap<LambdaGroup, ServiceFunction>;
  /** HTTP API with one route per manifest operation plus `$default`. */
  readonly httpApi: ServiceHttpApi;
  /** Outbox stream → fan-out → delivery queue → delivery worker. Its functions are not API groups. */
  readonly webhooks: WebhookPipeline;
  /** Documents bucket → upload trigger → extraction state machine and its step functions (not API groups). */
  readonly extraction: ExtractionPipeline;
  /** On-call dashboard and alarms (`dashboard.alarms`). */
  readonly dashboard: ServiceDashboard;

  constructor(scope: Construct, id: string, props: TransactionCoordinationStackProps = {}) {
    super(scope, id, props);

    this.table = new ServiceTable(this, 'Data', { deletionProtection: props.tableDeletionProtection ?? true });

    const functions = new Map<LambdaGroup, ServiceFunction>();
    for (const group of lambdaGroups) {
      const fn = new ServiceFunction(this, `${pascal(group)}Api`, {
        entry: handlerEntryOf(group),
        description: `API group ${group} (functions/${group}/handler.ts)`,
      });
      fn.bindTable(this.table.table, tableAccessOf(group));
      functions.set(group, fn);
    }
    this.functions = functions;

    this.httpApi = new ServiceHttpApi(this, 'Http', {
      functionOf: (group) => {
        const fn = functions.get(group);
        if (!fn) throw new Error(`no function for Lambda group ${group}`);
        return fn.fn;
      },
    });

    this.webhooks = new WebhookPipeline(this, 'Webhooks', {
      table: this.table.table,
      entryOf: handlerEntryOf,
      ...props.webhooks,
    });

    this.extraction = new ExtractionPipeline(this, 'Extraction', {
      table: this.table.table,
      entryOf: (relativePath) => path.join(PROJECT_ROOT, relativePath),
    });
    for (const group of DOCUMENT_API_GROUPS) this.extraction.grantApiAccess(functions.get(group)!);

    this.dashboard = new ServiceDashboard(this, 'OnCall', {
      functions: [...functions].map(([group, f]) => ({ group, fn: f.fn })),
      api: this.httpApi.api,
      table: this.table.table,
      alarmActions: props.alarmActions,
      sections: [
        { alarms: this.webhooks.alarms, widgets: this.webhooks.dashboardWidgets() },
        { alarms: this.extraction.alarms, widgets: this.extraction.dashboardWidgets() },
      ],
    });

    new CfnOutput(this, 'ApiUrl', { value: this.httpApi.url, description: 'Invoke URL of the HTTP API ($default stage)' });
    new CfnOutput(this, 'TableName', { value: this.table.table.tableName, description: 'The single DynamoDB table' });
    new CfnOutput(this, 'DocumentsBucketName', { value: this.extraction.bucket.bucketName, description: 'Uploaded documents and OCR blocks files' });
    new CfnOutput(this, 'ExtractionStateMachineArn', { value: this.extraction.stateMachine.stateMachineArn, description: 'Contract-extraction state machine' });
  }
}
