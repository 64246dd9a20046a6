/**
 * `ReportBuilder`: the two workers that build stored reports for the reports API group (issue 24: pdf-lib, the ZIP
 * writer and the S3 client's multipart upload out of the API group; workers ≤ 600 KB each, so two).
 *
 *   reports API ──Invoke (RequestResponse)──▶ report-pdf ──PutObject──▶ reports/<orgId>/<dealId>/<reportId>/….pdf
 *               └─(format=zip) Invoke──────▶ report-zip ──GetObject (that PDF, the documents) ─▶ multipart ….zip
 *
 * - The API waits for both (shared/ports/report-builder.ts), so each worker's timeout (`REPORT_WORKER_TIMEOUT_SECONDS`)
 *   ends before the API's own 29 s; memory `REPORT_WORKER_MEMORY_MB` (CPU for pdf-lib; the ZIP streams).
 * - `report-pdf`: `Query` on the table (the deal's messages); `s3:PutObject` on `reports/*`.
 * - `report-zip`: `Query` and `GetItem` (the messages, the documents' items); `s3:GetObject` on `org/*` (the
 *   documents) and `reports/*` (the PDF), `s3:PutObject` and `s3:AbortMultipartUpload` on `reports/*`.
 * - Both read and write SSE-KMS objects with the data key. Neither is given anything else.
 * - `grantBuild(fn)`: the API function may invoke both (`live` aliases), and presign GETs of `reports/*` (data key decrypt)
 *   (`REPORT_PDF_FUNCTION`, `REPORT_ZIP_FUNCTION`, `DOCUMENTS_BUCKET`).
 * - A lifecycle rule expires `reports/` after `REPORT_OBJECT_DAYS` (the download link lives 15 minutes).
 * - One errors alarm for both (`WorkerErrorsAlarm`, runbook "Report worker errors"), which their deployments roll back on.
 */
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { REPORTS_PREFIX } from '#ports/object-prefixes';
import { lambdaErrorsAlarm } from './alarms/function-alarms.ts';
import type { DataKey } from './data-key.ts';
import { ServiceFunction } from './service-function.ts';
import { REPORT_PDF_TABLE_ACCESS, REPORT_ZIP_TABLE_ACCESS } from './table-access.ts';

/** The two workers, each built from `functions/<worker>/handler.ts`. */
export type ReportWorkerName = 'report-pdf' | 'report-zip';

/** Each worker's timeout, seconds: it ends before the API's 29 s, so the API answers a timeout itself (a 500). */
export const REPORT_WORKER_TIMEOUT_SECONDS = 25;
/** Each worker's memory (MB): Lambda's CPU share grows with it, and pdf-lib's layout is CPU-bound. */
export const REPORT_WORKER_MEMORY_MB = 1024;
/** Days a stored report is kept (its link is valid 15 minutes). */
export const REPORT_OBJECT_DAYS = 1;
/** Worker errors (both summed) in 5 minutes at or above which `WorkerErrorsAlarm` alarms, as an API group's. */
export const REPORT_WORKER_ERRORS_THRESHOLD = 3;

export interface ReportBuilderProps {
  readonly table: dynamodb.ITable;
  readonly documentsBucket: s3.Bucket;
  /** Absolute path of `functions/<worker>/handler.ts`. */
  readonly entryOf: (worker: ReportWorkerName) => string;
  /** The documents bucket's key (lib/data-key.ts). */
  readonly dataKey?: DataKey;
}

export class ReportBuilder extends Construct {
  readonly pdf: ServiceFunction;
  readonly zip: ServiceFunction;
  /** Errors of either worker (crash, timeout, out of memory, a thrown error). */
  readonly errorsAlarm: cloudwatch.Alarm;
  private readonly bucket: s3.Bucket;
  private readonly dataKey?: DataKey;

  constructor(scope: Construct, id: string, props: ReportBuilderProps) {
    super(scope, id);
    const bucket = (this.bucket = props.documentsBucket);
    this.dataKey = props.dataKey;
    bucket.addLifecycleRule({ id: 'expire-reports', prefix: REPORTS_PREFIX, expiration: Duration.days(REPORT_OBJECT_DAYS), noncurrentVersionExpiration: Duration.days(1) });
    const reports = bucket.arnForObjects(`${REPORTS_PREFIX}*`);
    const documents = bucket.arnForObjects('org/*');

    const worker = (name: ReportWorkerName, logicalId: string, description: string) =>
      new ServiceFunction(this, logicalId, {
        entry: props.entryOf(name),
        serviceName: name,
        description,
        timeout: Duration.seconds(REPORT_WORKER_TIMEOUT_SECONDS),
        memorySize: REPORT_WORKER_MEMORY_MB,
        // Holds the S3 client (report-zip) or pdf-lib (report-pdf): the X-Ray SDK stays out, as in the other such workers.
        xraySdk: false,
        environment: { DOCUMENTS_BUCKET: bucket.bucketName },
      });
    this.pdf = worker('report-pdf', 'Pdf', 'Renders a communication-log report as PDF and stores it (functions/report-pdf)');
    this.pdf.bindTable(props.table, REPORT_PDF_TABLE_ACCESS, { indexes: false });
    this.pdf.fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:PutObject'], resources: [reports] }));

    this.zip = worker('report-zip', 'Zip', 'Packs a communication-log report, its JSON and documents as a ZIP in S3 (functions/report-zip)');
    this.zip.bindTable(props.table, REPORT_ZIP_TABLE_ACCESS, { indexes: false });
    this.zip.fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [documents, reports] }));
    this.zip.fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:PutObject', 's3:AbortMultipartUpload'], resources: [reports] }));
    for (const fn of [this.pdf, this.zip]) props.dataKey?.grantEncryptDecrypt(fn.fn); // writes (and report-zip reads) SSE-KMS objects

    this.errorsAlarm = lambdaErrorsAlarm(this, 'WorkerErrorsAlarm', {
      functions: [
        { label: 'report-pdf', fn: this.pdf.fn },
        { label: 'report-zip', fn: this.zip.fn },
      ],
      description: `Report workers: >= ${REPORT_WORKER_ERRORS_THRESHOLD} Lambda errors in 5 min (crash, timeout, OOM). The communication-log report in PDF or ZIP answers 500.`,
      anchor: 'report-worker-errors',
      threshold: REPORT_WORKER_ERRORS_THRESHOLD,
    });
    for (const fn of [this.pdf, this.zip]) fn.addRollbackAlarm(this.errorsAlarm);

    const bucketId = Stack.of(this).getLogicalId(bucket.node.defaultChild as s3.CfnBucket);
    const acknowledge = (fn: ServiceFunction, prefix: string, why: string) =>
      Validations.of(fn).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${prefix}*]`,
        reason: `Object-level actions under one key prefix of the documents bucket: ${why}; the organization and deal are known at run time only.`,
      });
    acknowledge(this.pdf, REPORTS_PREFIX, 'stores report PDFs (reports/<orgId>/<dealId>/<reportId>/…)');
    acknowledge(this.zip, REPORTS_PREFIX, 'reads the report PDF and streams the ZIP beside it (reports/<orgId>/<dealId>/<reportId>/…)');
    acknowledge(this.zip, 'org/', "reads the documents the deal's messages carried (org/<orgId>/documents/…)");
  }

  /**
   * Lets an API function have reports built: invoke both workers' `live` aliases, and `s3:GetObject` on `reports/*`
   * with the data key's decrypt (a presigned GET is only as good as its signer's permissions). Sets `REPORT_PDF_FUNCTION`, `REPORT_ZIP_FUNCTION`
   * and `DOCUMENTS_BUCKET`.
   */
  grantBuild(fn: ServiceFunction): void {
    // One explicit statement on exactly the two ARNs the API names (no `:*` qualifier wildcard, as `grantInvoke` writes).
    fn.fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.pdf.live.functionArn, this.zip.live.functionArn] }));
    fn.fn.addEnvironment('REPORT_PDF_FUNCTION', this.pdf.live.functionArn);
    fn.fn.addEnvironment('REPORT_ZIP_FUNCTION', this.zip.live.functionArn);
    fn.fn.addEnvironment('DOCUMENTS_BUCKET', this.bucket.bucketName);
    fn.fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [this.bucket.arnForObjects(`${REPORTS_PREFIX}*`)] }));
    this.dataKey?.grantDecrypt(fn.fn);
    const bucketId = Stack.of(this).getLogicalId(this.bucket.node.defaultChild as s3.CfnBucket);
    Validations.of(fn).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${REPORTS_PREFIX}*]`,
      reason: 'Presigns GETs of stored reports only (reports/<orgId>/<dealId>/<reportId>/…): the organization is known at run time only.',
    });
  }
}
