/**
 * CDK assertions on the extraction pipeline (lib/extraction-pipeline.ts) inside the synthesized stack: the documents
 * bucket (private, encrypted, TLS only, lifecycle, access logs, CORS), the state machine (the definition of
 * lib/extraction-definition.ts with its substitutions, logging, tracing, a role that invokes exactly the step
 * functions), per-step grants (Textract, S3 prefixes, table actions), the ObjectCreated notification to the upload
 * handler, the API groups' bucket access, and the alarms. Targeted property checks, no snapshots; cdk-nag is checked
 * for the whole stack in stack.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTRACTION_STEPS, MAX_OCR_POLLS, OCR_POLL_INTERVAL_SECONDS, STEP_RESOURCE_VARIABLES, STEP_STATE_NAMES, type ExtractionStep } from '#lib/extraction-definition';
import type { ServiceFunction } from '#lib/service-function';
import { loadOperations } from '#lib/registry';
import { ARCHIVE_NONCURRENT_AFTER_DAYS, DEFAULT_RECORD_RETENTION_YEARS, yearsInDays } from '#lib/retention';
import type { Capability } from '#api/types';
import { synthesizeDefault, type Synthesized } from './synth.ts';

type Statement = { Effect: string; Action: string | string[]; Resource: unknown; Condition?: unknown };

let s: Synthesized;

beforeAll(async () => {
  s = await synthesizeDefault();
}, 300_000); // one synthesis: minutes on a loaded 2-core machine

afterAll(() => {
  s?.cleanup();
});

const pipeline = () => s.stack.extraction;
const idOf = (construct: { node: { defaultChild?: unknown } }) => s.logicalIdOf(construct);
const arnOf = (logicalId: string) => ({ 'Fn::GetAtt': [logicalId, 'Arn'] });
const live = (fn: ServiceFunction) => s.liveOf(fn);
const actionsOf = (st: Statement) => [st.Action].flat();
const objectsArn = (prefix: string) => ({ 'Fn::Join': ['', [arnOf(idOf(pipeline().bucket)), `/${prefix}*`]] });

/** Every IAM statement attached to the role `roleLogicalId`. */
function statementsOfRole(roleLogicalId: string): Statement[] {
  return s
    .ofType('AWS::IAM::Policy')
    .map(([, r]) => r.Properties)
    .filter((p) => p.Roles.some((r: { Ref: string }) => r.Ref === roleLogicalId))
    .flatMap((p) => p.PolicyDocument.Statement as Statement[]);
}
const statementsOf = (fn: ServiceFunction) => statementsOfRole(s.resources[idOf(fn.fn)].Properties.Role['Fn::GetAtt'][0]);
/** Actions of `fn` whose name starts with `service:`, sorted. */
const serviceActions = (fn: ServiceFunction, service: string) =>
  statementsOf(fn)
    .flatMap(actionsOf)
    .filter((a) => a.startsWith(`${service}:`))
    .sort();
/** Resources of the statements of `fn` that allow `action`. */
const resourcesFor = (fn: ServiceFunction, action: string) =>
  statementsOf(fn)
    .filter((st) => st.Effect === 'Allow' && actionsOf(st).includes(action))
    .flatMap((st) => [st.Resource].flat());

describe('documents bucket', () => {
  it('is private, SSE-KMS with the data key and a Bucket Key, versioned, and logs access to the logs bucket', () => {
    const bucket = s.resources[idOf(pipeline().bucket)];
    expect(bucket.Properties).toMatchObject({
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{
          ServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms', KMSMasterKeyID: { 'Fn::GetAtt': [s.logicalIdOf(s.stack.dataKey.key), 'Arn'] } },
          BucketKeyEnabled: true,
        }],
      },
      LoggingConfiguration: { DestinationBucketName: { Ref: idOf(pipeline().accessLogsBucket) }, LogFilePrefix: 'documents/' },
      VersioningConfiguration: { Status: 'Enabled' },
    });
    expect(bucket.DeletionPolicy).toBe('Retain');
    // S3 server access logs can only be delivered to an SSE-S3 bucket.
    expect(s.resources[idOf(pipeline().accessLogsBucket)].Properties.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm).toBe('AES256');
  });

  it('lets StartOcr decrypt with the data key (it reads the upload), and nothing more of KMS', () => {
    const keyArn = { 'Fn::GetAtt': [s.logicalIdOf(s.stack.dataKey.key), 'Arn'] };
    const startOcrRole = s.resources[idOf(pipeline().steps.startOcr.fn)].Properties.Role['Fn::GetAtt'][0];
    const policy = s.ofType('AWS::IAM::Policy').find(([, p]) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === startOcrRole))![1];
    const kmsStatements = (policy.Properties.PolicyDocument.Statement as Statement[]).filter((st) => actionsOf(st).some((a) => a.startsWith('kms:')));
    expect(kmsStatements).toEqual([expect.objectContaining({ Action: ['kms:Decrypt', 'kms:DescribeKey'], Resource: keyArn })]);
  });

  it('refuses requests without TLS (documents and logs buckets)', () => {
    for (const b of [pipeline().bucket, pipeline().accessLogsBucket]) {
      const policies = s.ofType('AWS::S3::BucketPolicy').filter(([, p]) => p.Properties.Bucket.Ref === idOf(b));
      const statements = policies.flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Statement[]);
      expect(
        statements.some((st) => st.Effect === 'Deny' && actionsOf(st).includes('s3:*') && JSON.stringify(st.Condition) === '{"Bool":{"aws:SecureTransport":"false"}}'),
        b.node.path,
      ).toBe(true);
    }
  });

  it('aborts incomplete multipart uploads after 1 day, expires ocr/ after 30 days, tiers org/ after 30 days, archives old document versions for the retention years (+ the exports/ rule)', () => {
    const rules = s.resources[idOf(pipeline().bucket)].Properties.LifecycleConfiguration.Rules as Record<string, unknown>[];
    expect(rules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Status: 'Enabled', AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } }),
        expect.objectContaining({ Status: 'Enabled', Prefix: 'ocr/', ExpirationInDays: 30, NoncurrentVersionExpiration: { NoncurrentDays: 1 } }),
        expect.objectContaining({ Status: 'Enabled', Prefix: 'org/', Transitions: [{ StorageClass: 'INTELLIGENT_TIERING', TransitionInDays: 30 }] }),
        expect.objectContaining({
          Status: 'Enabled',
          Prefix: 'org/',
          NoncurrentVersionTransitions: [{ StorageClass: 'DEEP_ARCHIVE', TransitionInDays: ARCHIVE_NONCURRENT_AFTER_DAYS }],
          NoncurrentVersionExpiration: { NoncurrentDays: yearsInDays(DEFAULT_RECORD_RETENTION_YEARS) },
        }),
        expect.objectContaining({ Status: 'Enabled', ExpiredObjectDeleteMarker: true }),
      ]),
    );
    // The others are the workspace lifecycle's `exports/` expiry (workspace-lifecycle.test.ts) and the reports'
    // `reports/` expiry (report-builder.test.ts).
    expect(rules.filter((r) => r.Prefix !== 'exports/' && r.Prefix !== 'reports/')).toHaveLength(5);
    // No rule without a prefix deletes old versions: it would cut the documents' retention short.
    expect(rules.filter((r) => r.Prefix === undefined && r.NoncurrentVersionExpiration !== undefined)).toEqual([]);
    expect(rules.find((r) => r.Prefix === 'org/')).not.toHaveProperty('ExpirationInDays'); // documents are never expired
  });

  it('lets browsers PUT and GET from the API\'s origins, by default any (presigned URLs)', () => {
    expect(s.resources[idOf(pipeline().bucket)].Properties.CorsConfiguration.CorsRules).toEqual([
      expect.objectContaining({ AllowedMethods: ['PUT', 'GET'], AllowedOrigins: ['*'], AllowedHeaders: ['*'] }),
    ]);
  });

  it('keeps access logs private and encrypted, 90 days', () => {
    expect(s.resources[idOf(pipeline().accessLogsBucket)].Properties).toMatchObject({
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      LifecycleConfiguration: { Rules: [expect.objectContaining({ ExpirationInDays: 90 })] },
    });
  });
});

describe('state machine', () => {
  const machine = () => s.resources[idOf(pipeline().stateMachine)];

  it('is the extraction definition: every state, placeholders substituted with the live alias of each step function', () => {
    expect(s.ofType('AWS::StepFunctions::StateMachine')).toHaveLength(1);
    const definition = JSON.parse(machine().Properties.DefinitionString as string);
    expect(Object.keys(definition.States).sort()).toEqual(
      [
        'MarkRunning',
        'StartOcr',
        'WaitForOcr',
        'GetOcrStatus',
        'OcrDone',
        'CountOcrPoll',
        'OcrPollLimitReached',
        'OcrTimedOut',
        'OcrFailed',
        'CollectBlocks',
        'ExtractFields',
        'Succeeded',
        'MarkFailed',
        'Failed',
      ].sort(),
    );
    expect(definition.States.WaitForOcr.Seconds).toBe(OCR_POLL_INTERVAL_SECONDS);
    expect(definition.States.OcrPollLimitReached.Choices[0].NumericGreaterThanEquals).toBe(MAX_OCR_POLLS);
    expect(definition.States.CountOcrPoll.Parameters['polls.$']).toBe('States.MathAdd($.ocr.polls, 1)');
    const substitutions = machine().Properties.DefinitionSubstitutions;
    for (const step of EXTRACTION_STEPS) {
      expect(definition.States[STEP_STATE_NAMES[step]].Resource).toBe(`\${${STEP_RESOURCE_VARIABLES[step]}}`);
      expect(substitutions[STEP_RESOURCE_VARIABLES[step]], step).toEqual(live(pipeline().steps[step]));
    }
    expect(Object.keys(substitutions)).toHaveLength(EXTRACTION_STEPS.length);
  });

  it('logs ALL (with execution data) to its log group and traces with X-Ray', () => {
    expect(machine().Properties).toMatchObject({
      StateMachineType: 'STANDARD',
      LoggingConfiguration: { Level: 'ALL', IncludeExecutionData: true, Destinations: [{ CloudWatchLogsLogGroup: { LogGroupArn: arnOf(idOf(pipeline().logGroup)) } }] },
      TracingConfiguration: { Enabled: true },
    });
    expect(s.resources[idOf(pipeline().logGroup)].Properties.RetentionInDays).toBe(30);
  });

  it('may invoke exactly the six step functions (and no other function)', () => {
    const statements = statementsOfRole(machine().Properties.RoleArn['Fn::GetAtt'][0]);
    const invoke = statements.filter((st) => actionsOf(st).some((a) => a.startsWith('lambda:')));
    expect(invoke.flatMap(actionsOf)).toEqual(['lambda:InvokeFunction']);
    const resources = invoke.flatMap((st) => [st.Resource].flat());
    const expected = EXTRACTION_STEPS.map((step) => live(pipeline().steps[step])); // the live aliases the definition names
    expect(resources).toHaveLength(expected.length);
    expect(resources).toEqual(expect.arrayContaining(expected));
  });
});

describe('step functions', () => {
  const TEXTRACT: Record<ExtractionStep, string[]> = {
    markRunning: [],
    startOcr: ['textract:StartDocumentAnalysis'],
    getOcrStatus: ['textract:GetDocumentAnalysis'],
    collectBlocks: ['textract:GetDocumentAnalysis'],
    extractFields: [],
    markFailed: [],
  };
  const TABLE: Record<ExtractionStep, string[]> = {
    markRunning: ['dynamodb:GetItem', 'dynamodb:TransactWriteItems', 'dynamodb:UpdateItem'],
    startOcr: [],
    getOcrStatus: [],
    collectBlocks: [],
    // Also Query (the deal's collection) and PutItem (a proposal) for the key dates a later document of a deal changes.
    extractFields: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:TransactWriteItems', 'dynamodb:UpdateItem'],
    markFailed: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:TransactWriteItems', 'dynamodb:UpdateItem'],
  };
  const S3: Record<ExtractionStep, [string, string][]> = {
    markRunning: [],
    startOcr: [['s3:GetObject', 'org/']],
    getOcrStatus: [],
    collectBlocks: [['s3:PutObject', 'ocr/']],
    extractFields: [['s3:GetObject', 'ocr/']],
    markFailed: [],
  };

  it('OCR steps have their Textract actions (on "*": no resource-level support); the others none', () => {
    for (const step of EXTRACTION_STEPS) {
      const fn = pipeline().steps[step];
      expect(serviceActions(fn, 'textract'), step).toEqual(TEXTRACT[step]);
      for (const action of TEXTRACT[step]) expect(resourcesFor(fn, action), step).toEqual(['*']);
    }
  });

  it('only the job steps touch the table, with exactly the actions they call (base table, no Delete; Query only for the proposals of ExtractFields)', () => {
    const tableArn = arnOf(idOf(s.stack.table.table));
    for (const step of EXTRACTION_STEPS) {
      const fn = pipeline().steps[step];
      expect(serviceActions(fn, 'dynamodb'), step).toEqual(TABLE[step]);
      for (const action of TABLE[step]) expect(resourcesFor(fn, action), step).toEqual([tableArn]);
    }
  });

  it('S3: StartOcr reads documents (org/), CollectBlocks writes and ExtractFields reads blocks files (ocr/); nothing else', () => {
    for (const step of EXTRACTION_STEPS) {
      const fn = pipeline().steps[step];
      expect(serviceActions(fn, 's3'), step).toEqual(S3[step].map(([a]) => a).sort());
      for (const [action, prefix] of S3[step]) expect(resourcesFor(fn, action), step).toEqual([objectsArn(prefix)]);
    }
  });

  it('are Node.js 22 arm64 functions; the blob-store steps get the bucket name; CollectBlocks/ExtractFields more time and memory', () => {
    for (const step of EXTRACTION_STEPS) {
      const props = s.resources[idOf(pipeline().steps[step].fn)].Properties;
      expect(props, step).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], TracingConfig: { Mode: 'Active' } });
      const bucket = props.Environment.Variables.DOCUMENTS_BUCKET;
      if (step === 'collectBlocks' || step === 'extractFields') expect(bucket, step).toEqual({ Ref: idOf(pipeline().bucket) });
      else expect(bucket, step).toBeUndefined();
    }
    expect(s.resources[idOf(pipeline().steps.collectBlocks.fn)].Properties).toMatchObject({ Timeout: 120, MemorySize: 1024 });
    expect(s.resources[idOf(pipeline().steps.extractFields.fn)].Properties).toMatchObject({ Timeout: 60, MemorySize: 1024 });
  });

  it('the steps holding the S3 client (StartOcr, CollectBlocks, ExtractFields) are bundled without the X-Ray SDK', () => {
    for (const step of EXTRACTION_STEPS) {
      const tracer = s.resources[idOf(pipeline().steps[step].fn)].Properties.Environment.Variables.POWERTOOLS_TRACE_ENABLED;
      expect(tracer, step).toBe(['startOcr', 'collectBlocks', 'extractFields'].includes(step) ? 'false' : undefined);
    }
  });
});

describe('upload trigger', () => {
  it('sends ObjectCreated notifications under org/ to the upload handler, and lets S3 invoke it', () => {
    const [[, notifications], ...rest] = s.ofType('Custom::S3BucketNotifications');
    expect(rest).toHaveLength(0);
    expect(notifications.Properties.BucketName).toEqual({ Ref: idOf(pipeline().bucket) });
    // inbound/ (received mail) goes to the messaging pipeline's handler: messaging-pipeline.test.ts.
    const toUploadHandler = notifications.Properties.NotificationConfiguration.LambdaFunctionConfigurations.filter(
      (c: { LambdaFunctionArn: unknown }) => JSON.stringify(c.LambdaFunctionArn) === JSON.stringify(live(pipeline().uploadHandler)),
    );
    expect(toUploadHandler).toEqual([
      {
        Events: ['s3:ObjectCreated:*'],
        Filter: { Key: { FilterRules: [{ Name: 'prefix', Value: 'org/' }] } },
        LambdaFunctionArn: live(pipeline().uploadHandler),
      },
    ]);
    const permissions = s
      .ofType('AWS::Lambda::Permission')
      .filter(([, p]) => p.Properties.Principal === 's3.amazonaws.com' && JSON.stringify(p.Properties.FunctionName) === JSON.stringify(live(pipeline().uploadHandler)));
    expect(permissions).toHaveLength(1);
    expect(permissions[0][1].Properties).toMatchObject({ SourceArn: arnOf(idOf(pipeline().bucket)) });
  });

  it('may start executions of the state machine, read/delete documents, and create jobs', () => {
    const fn = pipeline().uploadHandler;
    expect(serviceActions(fn, 'states')).toEqual(['states:StartExecution']);
    expect(resourcesFor(fn, 'states:StartExecution')).toEqual([{ Ref: idOf(pipeline().stateMachine) }]);
    expect(serviceActions(fn, 's3')).toEqual(['s3:DeleteObject', 's3:GetObject']);
    expect(resourcesFor(fn, 's3:GetObject')).toEqual([objectsArn('org/')]);
    expect(serviceActions(fn, 'dynamodb')).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:TransactWriteItems', 'dynamodb:UpdateItem']);
    expect(s.resources[idOf(fn.fn)].Properties.Environment.Variables).toMatchObject({
      DOCUMENTS_BUCKET: { Ref: idOf(pipeline().bucket) },
      EXTRACTION_STATE_MACHINE_ARN: { Ref: idOf(pipeline().stateMachine) },
    });
  });

  it('keeps a notification it failed after two retries in the async failure queue (on-failure destination), for a replay', () => {
    s.template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: idOf(pipeline().uploadHandler.fn) },
      MaximumRetryAttempts: 2,
      DestinationConfig: { OnFailure: { Destination: arnOf(idOf(s.stack.messaging.failureQueue)) } },
    });
  });
});

describe('API groups', () => {
  it('documents gets put/get/delete on org/ objects and StartExecution; extractions gets get and StartExecution (their operations\' capabilities)', () => {
    const expected = { documents: ['s3:DeleteObject', 's3:GetObject', 's3:PutObject'], extractions: ['s3:GetObject'] } as const;
    for (const group of ['documents', 'extractions'] as const) {
      const fn = s.stack.functions.get(group)!;
      expect(s.resources[idOf(fn.fn)].Properties.Environment.Variables, group).toMatchObject({
        DOCUMENTS_BUCKET: { Ref: idOf(pipeline().bucket) },
        EXTRACTION_STATE_MACHINE_ARN: { Ref: idOf(pipeline().stateMachine) },
      });
      expect(serviceActions(fn, 's3'), group).toEqual(expected[group]);
      for (const action of expected[group]) expect(resourcesFor(fn, action), group).toEqual([objectsArn('org/')]);
      expect(serviceActions(fn, 'states'), group).toEqual(['states:StartExecution']);
    }
  });

  it('only groups whose operations declare documents:* get the bucket (reports:build: GET on reports/ only), and extraction:start the state machine', async () => {
    const ops = await loadOperations();
    const declaring = (pred: (c: Capability) => boolean) => new Set(ops.filter((op) => op.uses.some(pred)).map((op) => op.group as string));
    const bucketGroups = declaring((c) => c.startsWith('documents:'));
    const machineGroups = declaring((c) => c === 'extraction:start');
    // reports:build presigns its built file's download: GetObject on reports/ only (report-builder.test.ts).
    const reportGroups = declaring((c) => c === 'reports:build');
    expect(bucketGroups).toContain('documents');
    expect(machineGroups).toContain('documents');
    for (const [group, fn] of s.stack.functions) {
      if (!machineGroups.has(group)) expect(serviceActions(fn, 'states'), group).toEqual([]);
      if (bucketGroups.has(group)) continue;
      if (reportGroups.has(group)) {
        expect(serviceActions(fn, 's3'), group).toEqual(['s3:GetObject']);
        expect(resourcesFor(fn, 's3:GetObject'), group).toEqual([objectsArn('reports/')]);
        continue; // it names the bucket to presign on (DOCUMENTS_BUCKET)
      }
      expect(serviceActions(fn, 's3'), group).toEqual([]);
      expect(s.resources[idOf(fn.fn)].Properties.Environment.Variables.DOCUMENTS_BUCKET, group).toBeUndefined();
    }
  });
});

describe('alarms and dashboard', () => {
  it('alarms on system failures (asserted in alarms.test.ts), timed-out, aborted and throttled executions, and upload handler errors', () => {
    const sm = { Ref: idOf(pipeline().stateMachine) };
    for (const metric of ['ExecutionsTimedOut', 'ExecutionsAborted', 'ExecutionThrottled']) {
      s.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Namespace: 'AWS/States',
        MetricName: metric,
        Dimensions: [{ Name: 'StateMachineArn', Value: sm }],
        Statistic: 'Sum',
        Period: 900,
        Threshold: 0,
        ComparisonOperator: 'GreaterThanThreshold',
      });
    }
    s.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/Lambda',
      MetricName: 'Errors',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: idOf(pipeline().uploadHandler.fn) } }],
      Threshold: 0,
    });
  });

  it('lists its alarms with the dashboard alarms and adds a row of graphs', () => {
    expect(pipeline().alarms).toHaveLength(5);
    for (const alarm of pipeline().alarms) expect(s.stack.dashboard.alarms).toContain(alarm);
    const [[, dashboard]] = s.ofType('AWS::CloudWatch::Dashboard');
    const body = JSON.stringify(dashboard.Properties.DashboardBody);
    for (const metric of ['ExecutionsStarted', 'ExecutionsFailed', 'ExecutionTime']) expect(body).toContain(metric);
  });
});
