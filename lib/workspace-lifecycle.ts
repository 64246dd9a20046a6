/**
 * `WorkspaceLifecycle`: what workspace deletion and export need in AWS (issue 13).
 *
 *   account API ──schedule.requested (outbox)──▶ outbox relay ──CreateSchedule──▶ messaging scheduler (lib/messaging/scheduler.ts: group,
 *   role, DLQ) ──at the time──▶ workspace-purge / workspace-export ──after Lambda's async retries──▶ failure queue
 *
 * - The schedules are the messaging scheduler's: one group, one role, one dead-letter queue for the whole service.
 *   Both workers are registered as its targets (`MessageScheduler.addTarget`), so its role may invoke exactly
 *   scheduled-send and these two, and the relay (`grantManage`) gets `SCHEDULE_TARGET_WORKSPACE_PURGE_ARN`
 *   and `SCHEDULE_TARGET_WORKSPACE_EXPORT_ARN`.
 * - `workspace-purge` (functions/workspace-purge): 15 minutes, deletes the organization's items (table access in
 *   lib/table-access.ts), its objects under `org/<orgId>/`, `ocr/<orgId>/`, `exports/<orgId>/` and `reports/<orgId>/`
 *   (`ORG_OBJECT_ROOTS`), and its schedules (`MessageScheduler.grantDelete`: `DeleteSchedule` only).
 * - `workspace-export` (functions/workspace-export): 15 minutes, `EXPORT_MEMORY_MB` (the archive is streamed into a
 *   multipart upload, documents read as streams: `npm run bench:export` measures the peak RSS of a 5 GB export),
 *   `EXPORT_TMP_MB` of `/tmp` (records staged per entity), reads the organization's items and `org/*` documents,
 *   writes `exports/*` (multipart, `s3:AbortMultipartUpload` to clean up a failed one), presigns a GET on it and emails the owner
 *   through the messaging mail grant (`MailSending.grantSend`: the service's SES identities and configuration set,
 *   `MAIL_FROM_ADDRESS`; no members' SMTP secrets).
 * - Failed asynchronous invocations (after `ASYNC_RETRY_ATTEMPTS` retries) go to the messaging failure queue
 *   (alarmed), as scheduled-send's do.
 * - A lifecycle rule on the documents bucket expiring `exports/` archives after `EXPORT_OBJECT_DAYS` days (the
 *   artifact and its link expire after 24 h: shared/domain/workspace-lifecycle.ts).
 */
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import type { DataKey } from './data-key.ts';
import type { MessagingPipeline } from './messaging-pipeline.ts';
import { ServiceFunction } from './service-function.ts';
import { WORKSPACE_EXPORT_TABLE_ACCESS, WORKSPACE_PURGE_TABLE_ACCESS } from './table-access.ts';
import { ORG_OBJECT_ROOTS } from '#ports/object-prefixes';

/** The two workers, each built from `functions/<worker>/handler.ts`; also their schedule target names. */
export type LifecycleWorker = 'workspace-purge' | 'workspace-export';

export const EXPORT_OBJECT_DAYS = 2;
/** The export worker's memory (MB): a streamed 5 GB export peaks well below it (README, Benchmark). */
export const EXPORT_MEMORY_MB = 512;
/** The export worker's `/tmp` (MB): the organization's records staged as JSON, one file per entity. */
export const EXPORT_TMP_MB = 2048;

export interface WorkspaceLifecycleProps {
  readonly table: dynamodb.ITable;
  readonly documentsBucket: s3.Bucket;
  /** Absolute path of `functions/<worker>/handler.ts`. */
  readonly entryOf: (worker: LifecycleWorker) => string;
  /** Its scheduler (targets, schedule deletion), mail grant and failure queue. */
  readonly messaging: MessagingPipeline;
  /** The documents bucket's key (lib/data-key.ts): the export worker reads and writes encrypted objects. */
  readonly dataKey?: DataKey;
}

export class WorkspaceLifecycle extends Construct {
  readonly purge: ServiceFunction;
  readonly export: ServiceFunction;

  constructor(scope: Construct, id: string, props: WorkspaceLifecycleProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const { scheduler, mail } = props.messaging;

    const bucket = props.documentsBucket;
    // Old versions of an archive are not records: gone a day after (the documents' own rule keeps theirs for years).
    bucket.addLifecycleRule({ id: 'expire-workspace-exports', prefix: 'exports/', expiration: Duration.days(EXPORT_OBJECT_DAYS), noncurrentVersionExpiration: Duration.days(1) });

    this.purge = new ServiceFunction(this, 'Purge', {
      entry: props.entryOf('workspace-purge'),
      serviceName: 'workspace-purge',
      description: 'Purges a workspace after its deletion grace period (functions/workspace-purge)',
      timeout: Duration.minutes(15),
      memorySize: 1024,
      xraySdk: false,
      environment: { DOCUMENTS_BUCKET: bucket.bucketName },
    });
    this.purge.bindTable(props.table, WORKSPACE_PURGE_TABLE_ACCESS);
    const prefixes = ORG_OBJECT_ROOTS.map((root) => `${root}*`);
    this.purge.fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:DeleteObject'], resources: prefixes.map((p) => bucket.arnForObjects(p)) }));
    this.purge.fn.addToRolePolicy(
      new iam.PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.bucketArn], conditions: { StringLike: { 's3:prefix': prefixes } } }),
    );
    scheduler.grantDelete(this.purge);

    this.export = new ServiceFunction(this, 'Export', {
      entry: props.entryOf('workspace-export'),
      serviceName: 'workspace-export',
      description: 'Builds a workspace export archive and emails its link (functions/workspace-export)',
      timeout: Duration.minutes(15),
      memorySize: EXPORT_MEMORY_MB,
      xraySdk: false,
      environment: { DOCUMENTS_BUCKET: bucket.bucketName },
    });
    (this.export.fn.node.defaultChild as lambda.CfnFunction).ephemeralStorage = { size: EXPORT_TMP_MB };
    this.export.bindTable(props.table, WORKSPACE_EXPORT_TABLE_ACCESS);
    this.export.fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [bucket.arnForObjects('org/*'), bucket.arnForObjects('exports/*')] }));
    this.export.fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:PutObject', 's3:AbortMultipartUpload'], resources: [bucket.arnForObjects('exports/*')] }));
    props.dataKey?.grantEncryptDecrypt(this.export.fn); // reads documents, writes the archive (SSE-KMS)
    mail.grantSend(this.export, { memberMailboxes: false }); // the notice is sent as the service, through SES

    for (const [target, fn] of [['workspace-purge', this.purge], ['workspace-export', this.export]] as const) {
      scheduler.addTarget(target, fn);
      props.messaging.catchFailures(fn);
    }

    const objectFindings = [
      ...prefixes.map((p) => ({ fn: this.purge, p })),
      { fn: this.export, p: 'org/*' },
      { fn: this.export, p: 'exports/*' },
    ];
    const bucketId = stack.getLogicalId(bucket.node.defaultChild as s3.CfnBucket);
    for (const { fn, p } of objectFindings) {
      Validations.of(fn).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${p}]`,
        reason: `Object-level actions on the ${p.slice(0, -2)}/ prefix only: the organization's id is known at run time, not at deploy time; the code builds every key from the organization it was invoked for (shared/ports/blob-store.ts orgObjectPrefixes).`,
      });
    }
  }
}
