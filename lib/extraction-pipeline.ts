/**
 * `ExtractionPipeline`: uploaded contract PDF → OCR → extracted fields on the extraction job.
 *
 *   browser PUT (presigned) ─▶ documents bucket ──ObjectCreated, prefix org/──▶ document-uploaded ──StartExecution──▶
 *   state machine: MarkRunning → StartOcr → (WaitForOcr → GetOcrStatus)* → CollectBlocks → ExtractFields | MarkFailed
 *                                 │ Textract async analysis (FORMS+QUERIES) │ ocr/<orgId>/<jobId>/blocks.json
 *
 * - Documents bucket: private (all public access blocked), SSE-KMS with the stack's data key and an S3 Bucket Key
 *   (SSE-S3 without one), TLS only, versioned; lifecycle (lib/retention.ts): a document's old versions (`org/`) move
 *   to Glacier Deep Archive after `ARCHIVE_NONCURRENT_AFTER_DAYS` and are deleted `recordRetentionYears` later (they
 *   are transaction records), lone delete markers removed, incomplete multipart uploads aborted after 1 day, OCR
 *   blocks files (`ocr/`, derived data) expired after 30 days with their old versions a day later, documents moved to
 *   INTELLIGENT_TIERING after 30 days; server access logs to a separate logs bucket (90 days); CORS lets a browser on
 *   the API's allowed origins (context `corsAllowOrigins`, default `*`) PUT (presigned upload) and GET (presigned
 *   download): the URL's signature is the authorization, the origin list only limits which web apps may use it.
 * - The state machine is lib/extraction-definition.ts as is (`DefinitionBody.fromString`), each
 *   `${<Step>FunctionArn}` substituted with its step function's ARN; logs ALL to its own log group; X-Ray tracing.
 *   Its role may invoke exactly the six step functions.
 * - Trigger: an S3 event notification straight to Lambda (not EventBridge): the upload handler takes the
 *   `S3Event` shape, which is also what the local runtime's s3rver hook delivers, so one handler serves both; the
 *   `org/` prefix filter is native to S3 notifications (OCR files under `ocr/` never trigger it); and there is no
 *   rule or bus to pay for. CDK installs the notification with its `BucketNotificationsHandler` custom resource.
 * - Grants are per function and exact: Textract actions only on the OCR steps (Textract has no resource-level
 *   permissions: `*`), `s3:GetObject` on `org/*` for StartOcr (Textract reads the object with the caller's
 *   credentials), `s3:PutObject` / `s3:GetObject` on `ocr/*` for CollectBlocks / ExtractFields, and table actions
 *   only for the steps that call the job repository (lib/table-access.ts).
 * - Alarms: system failures (> 0 in 15 min: executions that failed for another reason than the user's file, counted
 *   from the execution log; an encrypted or non-PDF upload is the user's to fix and does not page), executions timed
 *   out, aborted or throttled (> 0), upload handler errors (> 0 in 15 min); a dashboard row (`dashboardWidgets`).
 */
import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3n from 'aws-cdk-lib/aws-s3-notifications';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import type { DataKey } from './data-key.ts';
import type { ExtractionErrorCode } from '#domain/extraction/types';
import { OCR_PREFIX } from '#ports/object-prefixes';
import { DOCUMENT_PREFIX, EXTRACTION_STEPS, extractionDefinition, STEP_RESOURCE_VARIABLES, STEP_STATE_NAMES, type ExtractionStep } from './extraction-definition.ts';
import { countLines } from './alarms/log-metric.ts';
import { withRunbook, type RunbookAnchor } from './alarms/runbook.ts';
import { ARCHIVE_NONCURRENT_AFTER_DAYS, DEFAULT_RECORD_RETENTION_YEARS, yearsInDays } from './retention.ts';
import { ServiceFunction } from './service-function.ts';
import { DOCUMENT_UPLOADED_TABLE_ACCESS, EXTRACTION_STEP_TABLE_ACCESS, type TableAccess } from './table-access.ts';

/** Days before OCR blocks files (`ocr/`) expire. */
export const OCR_RETENTION_DAYS = 30;
/** Days before documents move to S3 Intelligent-Tiering. */
export const INTELLIGENT_TIERING_AFTER_DAYS = 30;
/** Days server access logs are kept. */
export const ACCESS_LOG_RETENTION_DAYS = 90;

/** Handler module of each step (relative to the project root); each exports `handler`. */
export const STEP_HANDLER_FILES: Readonly<Record<ExtractionStep, string>> = {
  markRunning: 'functions/extraction-steps/mark-running.ts',
  startOcr: 'functions/extraction-steps/start-ocr.ts',
  getOcrStatus: 'functions/extraction-steps/get-ocr-status.ts',
  collectBlocks: 'functions/extraction-steps/collect-blocks.ts',
  extractFields: 'functions/extraction-steps/extract-fields.ts',
  markFailed: 'functions/extraction-steps/mark-failed.ts',
};
/** Handler module of the S3 ObjectCreated trigger (relative to the project root). */
export const DOCUMENT_UPLOADED_HANDLER_FILE = 'functions/document-uploaded/handler.ts';

/** Timeout (s) and memory (MB) of each step function. */
const STEP_SIZING: Readonly<Record<ExtractionStep, { timeout: number; memorySize: number }>> = {
  markRunning: { timeout: 29, memorySize: 256 },
  startOcr: { timeout: 30, memorySize: 256 },
  getOcrStatus: { timeout: 30, memorySize: 256 },
  // Pages through up to ~60 pages of blocks (≤ 1,000 per call, Textract's Get* TPS is low) and writes MBs of JSON.
  collectBlocks: { timeout: 120, memorySize: 1024 },
  // Parses the blocks file and runs the extractor.
  extractFields: { timeout: 60, memorySize: 1024 },
  markFailed: { timeout: 29, memorySize: 256 },
};

/** Textract actions each OCR step calls (none supports resource-level permissions). */
const TEXTRACT_ACTIONS: Partial<Record<ExtractionStep, string[]>> = {
  startOcr: ['textract:StartDocumentAnalysis'],
  getOcrStatus: ['textract:GetDocumentAnalysis'],
  collectBlocks: ['textract:GetDocumentAnalysis'],
};

/**
 * Job error codes caused by the user's file (empty, not a PDF, corrupt, password-protected, too many pages, too large,
 * no readable text): the job fails with the code and a message telling the user what to do, and nobody is paged.
 * Every other failure (`internal_error`, `ocr_failed`, or an execution that failed outside `MarkFailed`) is a system failure.
 */
export const USER_DOCUMENT_ERRORS = [
  'empty_file',
  'not_pdf',
  'corrupt_pdf',
  'encrypted_pdf',
  'too_many_pages',
  'file_too_large',
  'no_text',
] as const satisfies readonly ExtractionErrorCode[];

/** Steps that read or write the bucket through shared/ports/blob-store.ts (which reads `DOCUMENTS_BUCKET`). */
const BLOB_STORE_STEPS: readonly ExtractionStep[] = ['collectBlocks', 'extractFields'];

/** Inputs of `ExtractionPipeline`. */
export interface ExtractionPipelineProps {
  /** The service table (jobs, documents, outbox). */
  readonly table: dynamodb.ITable;
  /** Absolute path of a handler module from its project-relative path (e.g. `functions/extraction-steps/start-ocr.ts`). */
  readonly entryOf: (relativePath: string) => string;
  /** What happens to the documents bucket when the stack is deleted. Default RETAIN (customer documents). */
  readonly documentsRemovalPolicy?: RemovalPolicy;
  /** Encrypts the documents bucket (SSE-KMS with an S3 Bucket Key; lib/data-key.ts). Default SSE-S3. */
  readonly dataKey?: DataKey;
  /**
   * Years a replaced or deleted document's old version is kept (in Deep Archive after `ARCHIVE_NONCURRENT_AFTER_DAYS`)
   * before the lifecycle deletes it (context `recordRetentionYears`, lib/retention.ts). Default `DEFAULT_RECORD_RETENTION_YEARS`.
   */
  readonly recordRetentionYears?: number;
  /** Origins a browser may upload from and download to (the API's `corsAllowOrigins`). Default `['*']`. */
  readonly corsAllowOrigins?: readonly string[];
}

/** Documents bucket (+ access-log bucket), step functions, state machine, upload trigger, alarms. */
export class ExtractionPipeline extends Construct {
  /** Uploaded documents (`org/…`) and OCR blocks files (`ocr/…`). */
  readonly bucket: s3.Bucket;
  /** Server access logs of `bucket`. */
  readonly accessLogsBucket: s3.Bucket;
  /** One function per task state. */
  readonly steps: Readonly<Record<ExtractionStep, ServiceFunction>>;
  /** The extraction state machine (lib/extraction-definition.ts). */
  readonly stateMachine: sfn.StateMachine;
  /** The state machine's execution log group (level ALL). */
  readonly logGroup: logs.LogGroup;
  /** S3 ObjectCreated (`org/`) → creates the job → starts an execution (functions/document-uploaded/handler.ts). */
  readonly uploadHandler: ServiceFunction;
  /** The key the documents bucket is encrypted with, when given. */
  readonly dataKey?: DataKey;
  /** System failures, executions timed out, aborted, throttled, upload handler errors. */
  readonly alarms: readonly cloudwatch.Alarm[];

  constructor(scope: Construct, id: string, props: ExtractionPipelineProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const documentsRemoval = props.documentsRemovalPolicy ?? RemovalPolicy.RETAIN;

    // Buckets.
    const privateBucket = { blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL, encryption: s3.BucketEncryption.S3_MANAGED, enforceSSL: true, versioned: false } as const;
    this.accessLogsBucket = new s3.Bucket(this, 'AccessLogs', {
      ...privateBucket,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [{ id: 'expire-access-logs', expiration: Duration.days(ACCESS_LOG_RETENTION_DAYS) }],
      removalPolicy: documentsRemoval,
    });
    Validations.of(this.accessLogsBucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'This bucket is itself the server-access-log destination of the documents bucket; logging it would need a ' +
        'further log bucket (or a loop). It is private, TLS-only, encrypted, and expires logs after 90 days.',
    });
    this.dataKey = props.dataKey;
    this.bucket = new s3.Bucket(this, 'Documents', {
      ...privateBucket,
      // Contracts are records: an overwrite or delete keeps the old version (a mistaken delete, a purge done in
      // error, a records request years later); the lifecycle rules below archive it, then expire it.
      versioned: true,
      ...(props.dataKey && { encryption: s3.BucketEncryption.KMS, encryptionKey: props.dataKey.key, bucketKeyEnabled: true }),
      serverAccessLogsBucket: this.accessLogsBucket,
      serverAccessLogsPrefix: 'documents/',
      cors: [
        {
          // Browser uploads (presigned PUT) and downloads (presigned GET) from the customer's own web apps: the same
          // origins as the API; the presigned signature is what authorizes each request.
          allowedMethods: [s3.HttpMethods.PUT, s3.HttpMethods.GET],
          allowedOrigins: [...(props.corsAllowOrigins ?? ['*'])],
          allowedHeaders: ['*'],
          exposedHeaders: ['ETag'],
          maxAge: 3000,
        },
      ],
      lifecycleRules: [
        { id: 'abort-incomplete-multipart-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
        {
          id: 'archive-old-document-versions',
          prefix: DOCUMENT_PREFIX,
          noncurrentVersionTransitions: [{ storageClass: s3.StorageClass.DEEP_ARCHIVE, transitionAfter: Duration.days(ARCHIVE_NONCURRENT_AFTER_DAYS) }],
          noncurrentVersionExpiration: Duration.days(yearsInDays(props.recordRetentionYears ?? DEFAULT_RECORD_RETENTION_YEARS)),
        },
        { id: 'remove-lone-delete-markers', expiredObjectDeleteMarker: true },
        { id: 'expire-ocr-blocks', prefix: OCR_PREFIX, expiration: Duration.days(OCR_RETENTION_DAYS), noncurrentVersionExpiration: Duration.days(1) },
        {
          id: 'documents-to-intelligent-tiering',
          prefix: DOCUMENT_PREFIX,
          transitions: [{ storageClass: s3.StorageClass.INTELLIGENT_TIERING, transitionAfter: Duration.days(INTELLIGENT_TIERING_AFTER_DAYS) }],
        },
      ],
      removalPolicy: documentsRemoval,
    });
    const documentObjects = this.bucket.arnForObjects(`${DOCUMENT_PREFIX}*`);
    const ocrObjects = this.bucket.arnForObjects(`${OCR_PREFIX}*`);

    // Step functions.
    const steps = {} as Record<ExtractionStep, ServiceFunction>;
    for (const step of EXTRACTION_STEPS) {
      const fn = new ServiceFunction(this, STEP_STATE_NAMES[step], {
        entry: props.entryOf(STEP_HANDLER_FILES[step]),
        serviceName: `extraction-${step}`,
        // The blob-store steps and StartOcr (it reads the PDF to count its pages) hold the S3 client: no room for the
        // X-Ray SDK (lib/service-function.ts `bundlesXraySdk`).
        xraySdk: !BLOB_STORE_STEPS.includes(step) && step !== 'startOcr',
        description: `Extraction step ${STEP_STATE_NAMES[step]} (${STEP_HANDLER_FILES[step]})`,
        timeout: Duration.seconds(STEP_SIZING[step].timeout),
        memorySize: STEP_SIZING[step].memorySize,
        // Only the steps that use the blob store read DOCUMENTS_BUCKET (StartOcr names the bucket to Textract from its input).
        environment: BLOB_STORE_STEPS.includes(step) ? { DOCUMENTS_BUCKET: this.bucket.bucketName } : {},
      });
      const tableAccess: TableAccess | undefined = (EXTRACTION_STEP_TABLE_ACCESS as Partial<Record<ExtractionStep, TableAccess>>)[step];
      if (tableAccess) fn.bindTable(props.table, tableAccess, { indexes: false });
      const textract = TEXTRACT_ACTIONS[step];
      if (textract) {
        fn.fn.addToRolePolicy(new iam.PolicyStatement({ actions: textract, resources: ['*'] }));
        Validations.of(fn).acknowledge({
          id: 'AwsSolutions-IAM5[Resource::*]',
          reason:
            'Resource "*" holds only actions without resource-level permissions: Amazon Textract ' +
            `${textract.join(', ')} (without a custom adapter, which this pipeline does not use, these take no resource ` +
            'ARN or condition key), and xray:PutTraceSegments/PutTelemetryRecords (active tracing).',
        });
      }
      steps[step] = fn;
    }
    // Textract reads the document with StartOcr's credentials.
    this.grantObjects(steps.startOcr, ['s3:GetObject'], documentObjects, 'StartOcr reads only uploaded documents (org/<orgId>/documents/…), which Textract then reads with its credentials');
    this.grantObjects(steps.collectBlocks, ['s3:PutObject'], ocrObjects, 'CollectBlocks writes only OCR blocks files (ocr/<orgId>/<jobId>/blocks.json)');
    this.grantObjects(steps.extractFields, ['s3:GetObject'], ocrObjects, 'ExtractFields reads only OCR blocks files (ocr/<orgId>/<jobId>/blocks.json)');
    this.steps = steps;

    // State machine.
    this.logGroup = new logs.LogGroup(this, 'ExecutionLogs', {
      // The /aws/vendedlogs/ prefix keeps CloudWatch Logs' resource policy small (AWS guidance for Step Functions).
      logGroupName: `/aws/vendedlogs/states/${stack.stackName}-extraction`,
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.stateMachine = new sfn.StateMachine(this, 'StateMachine', {
      comment: 'Contract extraction (lib/extraction-definition.ts)',
      stateMachineType: sfn.StateMachineType.STANDARD,
      definitionBody: sfn.DefinitionBody.fromString(JSON.stringify(extractionDefinition())),
      definitionSubstitutions: Object.fromEntries(EXTRACTION_STEPS.map((s) => [STEP_RESOURCE_VARIABLES[s], steps[s].live.functionArn])),
      logs: { destination: this.logGroup, level: sfn.LogLevel.ALL, includeExecutionData: true },
      tracingEnabled: true,
    });
    // Exactly the six step functions, by the ARN the definition names (the `live` alias, or the function without
    // safe deployments): IAM matches a qualified ARN only by that qualifier.
    this.stateMachine.addToRolePolicy(
      new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: EXTRACTION_STEPS.map((s) => steps[s].live.functionArn) }),
    );
    Validations.of(this.stateMachine).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'Resource "*" holds only actions without resource-level permissions that Step Functions needs for ' +
        'execution logging to CloudWatch Logs (logs:CreateLogDelivery, GetLogDelivery, UpdateLogDelivery, ' +
        'DeleteLogDelivery, ListLogDeliveries, PutResourcePolicy, DescribeResourcePolicies, DescribeLogGroups) and ' +
        'X-Ray tracing (xray:PutTraceSegments, PutTelemetryRecords, GetSamplingRules, GetSamplingTargets).',
    });

    // Upload trigger.
    this.uploadHandler = new ServiceFunction(this, 'DocumentUploaded', {
      entry: props.entryOf(DOCUMENT_UPLOADED_HANDLER_FILE),
      serviceName: 'document-uploaded',
      xraySdk: false, // holds the S3 client (lib/service-function.ts `bundlesXraySdk`)
      description: `S3 ObjectCreated (${DOCUMENT_PREFIX}) → extraction job → state machine (${DOCUMENT_UPLOADED_HANDLER_FILE})`,
      timeout: Duration.seconds(30),
      memorySize: 256,
      environment: { DOCUMENTS_BUCKET: this.bucket.bucketName, EXTRACTION_STATE_MACHINE_ARN: this.stateMachine.stateMachineArn },
    });
    this.uploadHandler.bindTable(props.table, DOCUMENT_UPLOADED_TABLE_ACCESS, { indexes: false });
    this.stateMachine.grantStartExecution(this.uploadHandler.fn);
    this.grantObjects(
      this.uploadHandler,
      ['s3:GetObject', 's3:DeleteObject'],
      documentObjects,
      'the upload handler checks (HEAD, first bytes) uploaded documents and deletes one whose document item is gone (org/<orgId>/documents/…)',
    );
    this.bucket.addEventNotification(s3.EventType.OBJECT_CREATED, new s3n.LambdaDestination(this.uploadHandler.live), { prefix: DOCUMENT_PREFIX });
    acknowledgeNotificationsHandler(stack);

    // Alarms.
    const alarm = (alarmId: string, description: string, anchor: RunbookAnchor, metric: cloudwatch.IMetric) =>
      new cloudwatch.Alarm(this, alarmId, {
        alarmDescription: withRunbook(this, description, anchor),
        metric,
        threshold: 0,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
    const fifteenMinutes = { period: Duration.minutes(15), statistic: 'Sum' };
    // The `Failed` state's Error is the job error code (lib/extraction-definition.ts), logged as `details.error`.
    const systemFailures = countLines(this, 'SystemFailuresFilter', {
      logGroup: this.logGroup,
      name: 'ExtractionSystemFailures',
      pattern: logs.FilterPattern.all(
        logs.FilterPattern.stringValue('$.type', '=', 'ExecutionFailed'),
        ...USER_DOCUMENT_ERRORS.map((code) => logs.FilterPattern.stringValue('$.details.error', '!=', code)),
      ),
      label: 'system failures',
    });
    this.alarms = [
      alarm(
        'SystemFailuresAlarm',
        'Extraction executions failed for a system reason in 15 min (internal_error, ocr_failed, or MarkFailed itself failed). ' +
          `User document errors (${USER_DOCUMENT_ERRORS.join(', ')}) are not counted.`,
        'extraction-system-failures',
        systemFailures.with({ period: Duration.minutes(15) }),
      ),
      alarm(
        'ExecutionsTimedOutAlarm',
        'An extraction execution hit its 1-hour timeout: its job may be left running (MarkFailed did not run). Fail the job by hand.',
        'extraction-executions-timed-out',
        this.stateMachine.metricTimedOut(fifteenMinutes),
      ),
      alarm(
        'ExecutionsAbortedAlarm',
        'An extraction execution was stopped (StopExecution): its job may be left running. Find who stopped it and fail or rerun the job.',
        'extraction-executions-aborted',
        this.stateMachine.metricAborted(fifteenMinutes),
      ),
      alarm(
        'ExecutionsThrottledAlarm',
        'Step Functions throttled extraction state transitions (account quota): extractions are delayed.',
        'extraction-executions-throttled',
        this.stateMachine.metricThrottled(fifteenMinutes),
      ),
      alarm(
        'UploadHandlerErrorsAlarm',
        "The S3 upload handler failed (after Lambda's 2 async retries the notification is dropped): an uploaded document may have no extraction job.",
        'upload-handler-errors',
        this.uploadHandler.fn.metricErrors(fifteenMinutes),
      ),
    ];
  }

  /**
   * Gives an API group function the documents bucket as its operations' capabilities ask (lib/stack.ts):
   * `DOCUMENTS_BUCKET`, and on uploaded documents only (`org/*`; no OCR files, no listing) `s3:GetObject` for
   * `documents:read` (presigned GETs are only as good as the signer's own permissions) and `s3:PutObject` +
   * `s3:DeleteObject` for `documents:write` (presigned PUTs, base64 uploads, deletes).
   */
  grantDocuments(fn: ServiceFunction, access: { read: boolean; write: boolean }): void {
    fn.fn.addEnvironment('DOCUMENTS_BUCKET', this.bucket.bucketName);
    const actions = [...(access.read ? ['s3:GetObject'] : []), ...(access.write ? ['s3:PutObject', 's3:DeleteObject'] : [])];
    if (!actions.length) return;
    this.grantObjects(
      fn,
      actions,
      this.bucket.arnForObjects(`${DOCUMENT_PREFIX}*`),
      `the API ${access.write ? 'stores, presigns and deletes' : 'presigns reads of'} only uploaded documents (org/<orgId>/documents/…)`,
    );
  }

  /**
   * Lets an API group function start extraction jobs (`extraction:start`: shared/use-cases/start-extraction.ts):
   * `EXTRACTION_STATE_MACHINE_ARN` and `states:StartExecution` on the state machine, plus `DOCUMENTS_BUCKET`
   * (the job names its document's object; no object permission).
   */
  grantStartExtraction(fn: ServiceFunction): void {
    fn.fn.addEnvironment('DOCUMENTS_BUCKET', this.bucket.bucketName);
    fn.fn.addEnvironment('EXTRACTION_STATE_MACHINE_ARN', this.stateMachine.stateMachineArn);
    this.stateMachine.grantStartExecution(fn.fn);
  }

  /** One dashboard row (24 wide): executions, execution time, step errors, OCR/extraction step durations. */
  dashboardWidgets(): cloudwatch.IWidget[] {
    const minute = { period: Duration.minutes(1) };
    const sum = { ...minute, statistic: 'Sum' };
    const sm = this.stateMachine;
    return [
      new cloudwatch.GraphWidget({
        title: 'Extraction executions (count)',
        width: 6,
        left: [
          sm.metricStarted({ ...sum, label: 'started' }),
          sm.metricSucceeded({ ...sum, label: 'succeeded' }),
          sm.metricFailed({ ...sum, label: 'failed' }),
          sm.metricTimedOut({ ...sum, label: 'timed out' }),
        ],
        leftYAxis: { min: 0, showUnits: false },
      }),
      new cloudwatch.GraphWidget({
        title: 'Extraction execution time (ms)',
        width: 6,
        left: [sm.metricTime({ ...minute, statistic: 'p50', label: 'p50' }), sm.metricTime({ ...minute, statistic: 'p99', label: 'p99' })],
        leftYAxis: { min: 0, showUnits: false },
      }),
      new cloudwatch.GraphWidget({
        title: 'Extraction functions: errors (count)',
        width: 6,
        left: [
          ...EXTRACTION_STEPS.map((s) => this.steps[s].fn.metricErrors({ ...sum, label: STEP_STATE_NAMES[s] })),
          this.uploadHandler.fn.metricErrors({ ...sum, label: 'DocumentUploaded' }),
        ],
        leftYAxis: { min: 0, showUnits: false },
      }),
      new cloudwatch.GraphWidget({
        title: 'Extraction step duration p99 (ms)',
        width: 6,
        left: (['startOcr', 'collectBlocks', 'extractFields'] as const).map((s) => this.steps[s].fn.metricDuration({ ...minute, statistic: 'p99', label: STEP_STATE_NAMES[s] })),
        leftYAxis: { min: 0, showUnits: false },
      }),
    ];
  }

  /** Allows `actions` on the objects `objectsArn` (a bucket ARN + `/<prefix>*`) and acknowledges that one wildcard. */
  private grantObjects(fn: ServiceFunction, actions: string[], objectsArn: string, why: string): void {
    fn.fn.addToRolePolicy(new iam.PolicyStatement({ actions, resources: [objectsArn] }));
    // SSE-KMS: a read decrypts; a write (a presigned PUT's signer too) generates the object's data key.
    if (actions.includes('s3:PutObject')) this.dataKey?.grantEncryptDecrypt(fn.fn);
    else if (actions.includes('s3:GetObject')) this.dataKey?.grantDecrypt(fn.fn);
    const bucketId = Stack.of(this).getLogicalId(this.bucket.node.defaultChild as s3.CfnBucket);
    const prefix = objectsArn.endsWith(`/${OCR_PREFIX}*`) ? OCR_PREFIX : DOCUMENT_PREFIX;
    Validations.of(fn).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${prefix}*]`,
      reason: `Object-level wildcard under one key prefix of the documents bucket: ${why}; actions are explicit (${actions.join(', ')}).`,
    });
  }
}

/**
 * Acknowledges the one finding on CDK's own `BucketNotificationsHandler` (the custom resource that puts the S3
 * notification configuration at deploy time; a stack singleton, created by `addEventNotification`).
 */
function acknowledgeNotificationsHandler(stack: Stack): void {
  const handler = stack.node.tryFindChild('BucketNotificationsHandler050a0587b7544547bf325f094a3db834');
  if (!handler) return;
  Validations.of(handler).acknowledge({
    id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
    reason:
      'CDK\'s BucketNotificationsHandler (custom resource installing the S3 → Lambda notification, run only at deploy ' +
      'time) uses AWSLambdaBasicExecutionRole only to write its CloudWatch Logs; the role is CDK-managed.',
  });
}
