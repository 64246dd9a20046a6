/**
 * `WorkspaceLifecycle`: what workspace deletion and export need in AWS (issue 13).
 *
 * - An EventBridge Scheduler schedule group for the service's one-time schedules, the role schedules run as
 *   (`lambda:InvokeFunction` on the two workers only, `sqs:SendMessage` on the schedules' dead-letter queue; trusted
 *   by scheduler.amazonaws.com from this account only) and that dead-letter queue (TLS only, 14 days).
 * - `workspace-purge` (functions/workspace-purge): 15 minutes, deletes the organization's items (table access in
 *   lib/table-access.ts), its objects under `org/<orgId>/`, `ocr/<orgId>/` and `exports/<orgId>/`, and its schedules.
 * - `workspace-export` (functions/workspace-export): 15 minutes, 2 GB (the archive is built in memory), reads the
 *   organization's items and `org/*` documents, writes `exports/*`, presigns a GET on it and emails the owner (SES).
 * - A lifecycle rule on the documents bucket expiring `exports/` archives after `EXPORT_OBJECT_DAYS` days (the
 *   artifact and its link expire after 24 h: shared/domain/workspace-lifecycle.ts).
 * - `grantSchedules` / `grantMail`: what the `schedules:manage` and `mail:send` capabilities of an API group grant.
 */
import { Aws, Duration, Stack, Validations } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { ServiceFunction } from './service-function.ts';
import { WORKSPACE_EXPORT_TABLE_ACCESS, WORKSPACE_PURGE_TABLE_ACCESS } from './table-access.ts';

/** Days after which S3 deletes an export archive (a day past its 24-hour expiry; lifecycle rules count in days). */
export const EXPORT_OBJECT_DAYS = 2;

export interface WorkspaceLifecycleProps {
  readonly table: dynamodb.Table;
  readonly documentsBucket: s3.Bucket;
  /** Absolute path of `functions/<worker>/handler.ts`. */
  readonly entryOf: (worker: 'workspace-purge' | 'workspace-export') => string;
  /** The service's sender address (`MAIL_FROM_ADDRESS`), a verified SES identity. */
  readonly mailFromAddress: string;
}

export class WorkspaceLifecycle extends Construct {
  readonly scheduleGroup: scheduler.CfnScheduleGroup;
  readonly schedulerRole: iam.Role;
  readonly schedulerDlq: sqs.Queue;
  readonly purge: ServiceFunction;
  readonly export: ServiceFunction;
  private readonly mailFromAddress: string;

  constructor(scope: Construct, id: string, props: WorkspaceLifecycleProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.mailFromAddress = props.mailFromAddress;
    this.scheduleGroup = new scheduler.CfnScheduleGroup(this, 'Schedules', { name: `${stack.stackName}-one-time` });

    this.schedulerDlq = new sqs.Queue(this, 'SchedulesDlq', { enforceSSL: true, encryption: sqs.QueueEncryption.SQS_MANAGED, retentionPeriod: Duration.days(14) });
    Validations.of(this.schedulerDlq).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is itself the dead-letter queue of the one-time schedules (EventBridge Scheduler DeadLetterConfig); a DLQ of a DLQ would only move the same messages again.',
    });

    const bucket = props.documentsBucket;
    bucket.addLifecycleRule({ id: 'expire-workspace-exports', prefix: 'exports/', expiration: Duration.days(EXPORT_OBJECT_DAYS) });

    this.purge = new ServiceFunction(this, 'Purge', {
      entry: props.entryOf('workspace-purge'),
      serviceName: 'workspace-purge',
      description: 'Purges a workspace after its deletion grace period (functions/workspace-purge)',
      timeout: Duration.minutes(15),
      memorySize: 1024,
      xraySdk: false,
      environment: { DOCUMENTS_BUCKET: bucket.bucketName, SCHEDULE_GROUP: this.scheduleGroup.ref },
    });
    this.purge.bindTable(props.table, WORKSPACE_PURGE_TABLE_ACCESS);
    const prefixes = ['org/*', 'ocr/*', 'exports/*'];
    this.purge.fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:DeleteObject'], resources: prefixes.map((p) => bucket.arnForObjects(p)) }));
    this.purge.fn.addToRolePolicy(
      new iam.PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.bucketArn], conditions: { StringLike: { 's3:prefix': prefixes } } }),
    );
    this.purge.fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['scheduler:DeleteSchedule'], resources: [this.schedulesArn()] }));
    this.acknowledgeSchedules(this.purge, 'scheduler:DeleteSchedule only: the purge deletes the organization\'s pending schedules.');

    this.export = new ServiceFunction(this, 'Export', {
      entry: props.entryOf('workspace-export'),
      serviceName: 'workspace-export',
      description: 'Builds a workspace export archive and emails its link (functions/workspace-export)',
      timeout: Duration.minutes(15),
      memorySize: 2048,
      xraySdk: false,
      environment: { DOCUMENTS_BUCKET: bucket.bucketName },
    });
    this.export.bindTable(props.table, WORKSPACE_EXPORT_TABLE_ACCESS);
    this.export.fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [bucket.arnForObjects('org/*'), bucket.arnForObjects('exports/*')] }));
    this.export.fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:PutObject'], resources: [bucket.arnForObjects('exports/*')] }));
    this.grantMail(this.export);

    this.schedulerRole = new iam.Role(this, 'SchedulerRole', {
      description: 'Role the one-time schedules run as: invoke the lifecycle workers, dead-letter failed invocations',
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', { conditions: { StringEquals: { 'aws:SourceAccount': stack.account } } }),
    });
    this.schedulerRole.addToPolicy(new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.purge.fn.functionArn, this.export.fn.functionArn] }));
    this.schedulerDlq.grantSendMessages(this.schedulerRole);

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

  /** `arn:...:schedule/<group>/*`: the schedules of this group (pseudo parameters, so the ARN is region-agnostic). */
  private schedulesArn(): string {
    return `arn:${Aws.PARTITION}:scheduler:${Aws.REGION}:${Aws.ACCOUNT_ID}:schedule/${this.scheduleGroup.ref}/*`;
  }

  /** Acknowledges the `schedule/<group>/*` wildcard on `fn` (cdk-nag names the group by its logical id). */
  private acknowledgeSchedules(fn: ServiceFunction, why: string): void {
    Validations.of(fn).acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:schedule/<${Stack.of(this).getLogicalId(this.scheduleGroup)}>/*]`,
      reason: `${why} Schedule names are made of ids at run time (purge-<deletionId>, export-<exportId>, msg-<id>); the grant is limited to the service's own schedule group.`,
    });
  }

  /**
   * The `schedules:manage` capability: create and delete schedules of the group, pass the scheduler role, and the
   * environment the scheduler port reads (group, role, DLQ, worker ARNs).
   */
  grantSchedules(fn: ServiceFunction): void {
    fn.fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['scheduler:CreateSchedule', 'scheduler:DeleteSchedule'], resources: [this.schedulesArn()] }));
    this.schedulerRole.grantPassRole(fn.fn.role!);
    fn.fn.addEnvironment('SCHEDULE_GROUP', this.scheduleGroup.ref);
    fn.fn.addEnvironment('SCHEDULER_ROLE_ARN', this.schedulerRole.roleArn);
    fn.fn.addEnvironment('SCHEDULER_DLQ_ARN', this.schedulerDlq.queueArn);
    fn.fn.addEnvironment('SCHEDULE_TARGET_WORKSPACE_PURGE_ARN', this.purge.fn.functionArn);
    fn.fn.addEnvironment('SCHEDULE_TARGET_WORKSPACE_EXPORT_ARN', this.export.fn.functionArn);
    this.acknowledgeSchedules(fn, 'scheduler:CreateSchedule/DeleteSchedule for the schedules:manage capability.');
  }

  /** The `mail:send` capability, for the service's own notices: SES `SendEmail` from the service's sender only. */
  grantMail(fn: ServiceFunction): void {
    const stack = Stack.of(this);
    const domain = this.mailFromAddress.split('@')[1] ?? this.mailFromAddress;
    fn.fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['ses:SendEmail', 'ses:SendRawEmail'],
        resources: [stack.formatArn({ service: 'ses', resource: 'identity', resourceName: domain }), stack.formatArn({ service: 'ses', resource: 'identity', resourceName: this.mailFromAddress })],
        conditions: { StringEquals: { 'ses:FromAddress': this.mailFromAddress } },
      }),
    );
    fn.fn.addEnvironment('MAIL_FROM_ADDRESS', this.mailFromAddress);
  }
}
