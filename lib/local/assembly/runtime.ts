/**
 * The assembly runtime: runs what `cdk deploy` ships, from `cdk.out`, on one machine. Everything is read from the
 * synthesized template: the table (DynamoDB Local), queues and redrive policies (local-aws-sqs), buckets and their
 * notifications (s3rver), every function's bundled asset with its environment (lib/local/assembly/function-pool.ts),
 * the HTTP API's routes, the state machine's definition, the stream and SQS event-source mappings, the SES receipt
 * rule's bucket and prefix, and the scheduler's targets. Every AWS call a function makes goes through the gateway
 * (lib/local/assembly/aws-gateway.ts), which records it in IAM's terms for the offline IAM evaluation; calls the
 * services make themselves (event-source mappings, Step Functions, Scheduler, S3 notifications, SES receiving) are
 * recorded with the role or service principal AWS would use.
 * Differences from AWS that a reader of a test should know: one region/account (lib/local/assembly/naming.ts),
 * Wait states last `waitMs`, Textract is the local OCR adapter, and mail leaves through a local SMTP server.
 */
import path from 'node:path';
import { mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { DynamoDBStreamEvent, S3Event, SQSEvent } from 'aws-lambda';
import { startDynamoDbLocal, type DynamoDbLocal } from '#lib/local/dynamodb-local';
import { startLocalS3 } from '#lib/local/s3-local';
import { startStreamPoller, type StreamPoller } from '#lib/local/stream-poller';
import { startSqsPoller, type SqsPoller } from '#lib/local/sqs-poller';
import { startLocalSmtp, type LocalSmtp } from '#lib/local/smtp-sink';
import { loadCloudAssembly, type CloudAssembly } from './cloud-assembly.ts';
import { bucketKeyOf, bucketNotifications, createTables, receiptRule, startQueues } from './resources.ts';
import { ASSEMBLY_ACCOUNT, ASSEMBLY_REGION } from './naming.ts';
import { FunctionPool } from './function-pool.ts';
import { forwardTo, startAwsGateway, type AwsCall, type AwsGateway, type GatewayRequest } from './aws-gateway.ts';
import { describeCall } from './call-describer.ts';
import { eventFilter } from './event-filter.ts';
import { routesOf, startAssemblyHttpApi } from './http-api.ts';
import { kmsEmulator } from './emulators/kms.ts';
import { sesEmulator } from './emulators/ses.ts';
import { smsVoiceEmulator } from './emulators/sms-voice.ts';
import { snsEmulator } from './emulators/sns.ts';
import { lambdaEmulator } from './emulators/lambda.ts';
import { schedulerEmulator, type SchedulerEmulator } from './emulators/scheduler.ts';
import { stepFunctionsEmulator, type StepFunctionsEmulator } from './emulators/step-functions.ts';
import { textractEmulator, type TextractEmulator } from './emulators/textract.ts';

export interface AssemblyRuntimeOptions {
  /** The cloud assembly directory (`cdk.out`). */
  cdkOut: string;
  /** Where DynamoDB, S3, mail and texts are kept (default a temp dir). */
  dataDir?: string;
  /** Use this DynamoDB Local instead of starting one. */
  dynamoEndpoint?: string;
  /** HTTP API port on 127.0.0.1 (default 0: a free one). */
  port?: number;
  /** How long Wait states wait, ms (default 100). */
  waitMs?: number;
  /** Stack name the physical names are made from (default the assembly's); tests give each runtime its own. */
  stackName?: string;
  /**
   * Let webhooks target loopback receivers over http (`LOCAL_MODE=true` in every function's environment, the one
   * variable the runtime adds; shared/events/url-safety.ts). Deployed, only public https URLs are accepted.
   * Default true: a receiver on this machine is the only kind a local run can reach.
   */
  loopbackWebhooks?: boolean;
}

export interface AssemblyRuntime {
  /** The HTTP API's base URL (the template's `ApiEndpoint`). */
  baseUrl: string;
  assembly: CloudAssembly;
  /** The DynamoDB Local endpoint the table is on. */
  dynamoEndpoint: string;
  /** Every AWS call recorded so far (functions, and services on their behalf). */
  calls: AwsCall[];
  /** Function pools by logical id. */
  functions: ReadonlyMap<string, FunctionPool>;
  smtp: LocalSmtp;
  smsSink: string;
  scheduler: SchedulerEmulator;
  /** Resolves when no extraction, OCR job or S3 notification is in flight. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the runtime over `opts.cdkOut`.
 * @throws Error when the assembly cannot be read or a function's asset is missing (run `npm run synth`)
 */
export async function startAssemblyRuntime(opts: AssemblyRuntimeOptions): Promise<AssemblyRuntime> {
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(tmpdir(), 'tcs-assembly-'));
  mkdirSync(dataDir, { recursive: true });
  const stops: Array<() => Promise<unknown> | unknown> = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s();
  };
  try {
    const pools = new Map<string, FunctionPool>();
    const byName = new Map<string, FunctionPool>();
    let gateway: AwsGateway | undefined;
    // A function named as Lambda accepts: name or ARN, optionally qualified by an alias or version.
    const poolOf = (nameOrArn: string): FunctionPool => {
      const name = nameOrArn.startsWith('arn:') ? nameOrArn.split(':')[6]! : nameOrArn.split(':')[0]!;
      const pool = byName.get(name);
      if (!pool) throw new Error(`no function ${nameOrArn} in the assembly`);
      return pool;
    };
    const invokeArn = (arn: string, event: unknown): Promise<unknown> => poolOf(arn).invoke(event);
    const record = (call: AwsCall) => gateway?.record(call);

    // The gateway first: queue URLs (the SQS endpoint an SDK client derives from them) name it.
    const gatewayOpts: Parameters<typeof startAwsGateway>[0] = { backends: {}, describe: () => [] };
    gateway = await startAwsGateway(gatewayOpts);
    stops.push(() => gateway!.close());
    const api = await startAssemblyHttpApi({
      port: opts.port ?? 0,
      invoke: (arn, event) => {
        record({ caller: 'apigateway.amazonaws.com', callerKind: 'service', action: 'lambda:InvokeFunction', resource: arn });
        return invokeArn(arn, event);
      },
    });
    stops.push(() => api.close());
    const assembly = loadAssemblyFor(opts.cdkOut, api.baseUrl, gateway.endpoint, opts.stackName);
    const root = assembly.root;
    const all = assembly.templates;

    let ddb: DynamoDbLocal | undefined;
    const dynamoEndpoint = opts.dynamoEndpoint ?? (ddb = await startDynamoDbLocal({ dataDir: path.join(dataDir, 'dynamodb') })).endpoint;
    if (ddb) stops.push(() => ddb!.stop());
    const tables = await createTables(root, dynamoEndpoint);

    const sqs = await startQueues(all);
    stops.push(() => sqs.stop());

    const buckets = root.ofType('AWS::S3::Bucket').map((id) => String(root.resolve({ Ref: id })));
    const notifications = bucketNotifications(root);
    const s3 = await startLocalS3({
      directory: path.join(dataDir, 's3'),
      bucket: buckets[0],
      extraBuckets: buckets.slice(1),
      onObjectCreated: async (event: S3Event) => {
        for (const target of notifications) {
          const records = event.Records.filter((r) => r.s3.bucket.name === target.bucket && decodeURIComponent(r.s3.object.key.replace(/\+/g, ' ')).startsWith(target.prefix));
          if (!records.length) continue;
          record({ caller: 's3.amazonaws.com', callerKind: 'service', action: 'lambda:InvokeFunction', resource: target.functionArn, context: { 'aws:SourceArn': `arn:aws:s3:::${target.bucket}`, 'aws:SourceAccount': assembly.naming.account } });
          await invokeArn(target.functionArn, { Records: records.map((r) => ({ ...r, awsRegion: assembly.naming.region })) });
        }
      },
    });
    stops.push(() => s3.stop());
    const s3Client = new S3Client({ endpoint: s3.endpoint, forcePathStyle: true, region: assembly.naming.region, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    const readObject = async (bucket: string, key: string) => Buffer.from(await (await s3Client.send(new GetObjectCommand({ Bucket: bucket, Key: key }))).Body!.transformToByteArray());

    const keyArnOf = (keyId: string) => (keyId.startsWith('arn:') ? keyId : `arn:aws:kms:${assembly.naming.region}:${assembly.naming.account}:key/${keyId}`);
    const machines = root.ofType('AWS::StepFunctions::StateMachine').map((id) => {
      const props = root.resolve(root.resources[id]!.Properties) as { DefinitionString: string; DefinitionSubstitutions?: Record<string, string>; RoleArn: string };
      const text = props.DefinitionString.replace(/\$\{(\w+)\}/g, (m, name: string) => props.DefinitionSubstitutions?.[name] ?? m);
      return { arn: String(root.resolve({ Ref: id })), roleArn: props.RoleArn, definition: JSON.parse(text) };
    });
    const roleOf = (roleArn: string) => roleArn.split('/').pop()!;
    const sfn: StepFunctionsEmulator = stepFunctionsEmulator({
      machines,
      waitMs: opts.waitMs,
      invokeFunction: (arn, input, roleArn) => {
        record({ caller: roleOf(roleArn), callerKind: 'role', action: 'lambda:InvokeFunction', resource: arn });
        return invokeArn(arn, input);
      },
    });
    const textract: TextractEmulator = textractEmulator({ readObject });
    const smsSink = path.join(dataDir, 'sms', 'outbound.jsonl');
    const scheduler = schedulerEmulator({
      account: assembly.naming.account,
      region: assembly.naming.region,
      invokeTarget: (arn, input, roleArn) => {
        record({ caller: roleOf(roleArn), callerKind: 'role', action: 'lambda:InvokeFunction', resource: arn });
        return invokeArn(arn, input);
      },
      deadLetter: async (queueArn, body) => {
        await sqs.client.send(new SendMessageCommand({ QueueUrl: sqs.engineUrlOfArn(queueArn), MessageBody: body }));
      },
    });
    stops.push(() => scheduler.stop());
    const sns = snsEmulator();
    const inbound = receiptRule(root);
    const smtp = await startLocalSmtp({
      directory: path.join(dataDir, 'mail'),
      inboundDomain: inbound?.domain ?? 'inbound.invalid',
      onInbound: async (raw) => {
        if (!inbound) return;
        const key = `${inbound.prefix}${crypto.randomUUID()}`;
        record({ caller: 'ses.amazonaws.com', callerKind: 'service', action: 's3:PutObject', resource: `arn:aws:s3:::${inbound.bucket}/${key}`, context: { 'aws:SourceAccount': assembly.naming.account, 'aws:SourceArn': inbound.ruleArn } });
        const key_ = bucketKeyOf(root, inbound.bucket);
        if (key_) record({ caller: 'ses.amazonaws.com', callerKind: 'service', action: 'kms:GenerateDataKey', resource: key_, context: { 'aws:SourceAccount': assembly.naming.account, 'aws:SourceArn': inbound.ruleArn } });
        await s3Client.send(new PutObjectCommand({ Bucket: inbound.bucket, Key: key, Body: raw, ContentType: 'message/rfc822' }));
      },
    });
    stops.push(() => smtp.stop());

    Object.assign(gatewayOpts, {
      describe: (req: GatewayRequest) =>
        describeCall(req, {
          account: assembly.naming.account,
          region: assembly.naming.region,
          bucketKeys: new Map(buckets.map((b) => [b, bucketKeyOf(root, b)] as const).filter((e): e is [string, string] => Boolean(e[1]))),
          queueKeys: sqs.keys,
          keyArnOf,
        }),
      backends: {
        dynamodb: forwardTo(dynamoEndpoint),
        s3: forwardTo(s3.endpoint),
        sqs: forwardTo(sqs.endpoint, (body) => Buffer.from(body.toString('utf8').replace(/"QueueUrl":"[^"]*\/\d{12}\/([\w.-]+)"/g, (_, name: string) => `"QueueUrl":"${sqs.engineUrlOfName(name)}"`))),
        states: sfn.backend,
        textract: textract.backend,
        kms: kmsEmulator(keyArnOf),
        ses: sesEmulator(smtp.url),
        scheduler: scheduler.backend,
        'sms-voice': smsVoiceEmulator(smsSink),
        sns: sns.backend,
        lambda: lambdaEmulator(invokeArn),
      },
    });


    for (const t of all) {
      for (const id of t.ofType('AWS::Lambda::Function')) {
        const res = t.resources[id]!;
        const assetDir = assembly.assetDirOf(res);
        if (!assetDir) continue; // inline code: CDK's own custom-resource handlers, which deploy-time only runs
        const props = t.resolve(res.Properties) as { Handler: string; Timeout?: number; MemorySize?: number; Environment?: { Variables?: Record<string, string> } };
        const arn = String(t.resolve({ 'Fn::GetAtt': [id, 'Arn'] }));
        const pool = new FunctionPool(
          { logicalId: id, name: String(t.resolve({ Ref: id })), arn, assetDir, handler: props.Handler, environment: { ...(props.Environment?.Variables ?? {}), ...(opts.loopbackWebhooks === false ? {} : { LOCAL_MODE: 'true' }) }, timeoutSeconds: props.Timeout ?? 3, memoryMb: props.MemorySize ?? 128 },
          gateway.endpoint,
          { region: assembly.naming.region },
        );
        pools.set(id, pool);
        byName.set(pool.fn.name, pool);
      }
    }
    stops.push(() => Promise.all([...pools.values()].map((p) => p.stop())));
    api.setRoutes(all.flatMap(routesOf));

    // Event-source mappings: Lambda polls with the function's role, so those calls are the function's.
    const pollers: Array<StreamPoller | SqsPoller> = [];
    for (const id of root.ofType('AWS::Lambda::EventSourceMapping')) {
      const props = root.resolve(root.resources[id]!.Properties) as {
        EventSourceArn: string;
        FunctionName: string;
        BatchSize?: number;
        ScalingConfig?: { MaximumConcurrency?: number };
        FilterCriteria?: { Filters?: Array<{ Pattern: string }> };
        DestinationConfig?: { OnFailure?: { Destination?: string } };
      };
      const filter = eventFilter((props.FilterCriteria?.Filters ?? []).map((f) => f.Pattern));
      const pool = poolOf(props.FunctionName);
      const as = (action: string, resource: string, context?: Record<string, string>) => record({ caller: pool.fn.logicalId, callerKind: 'function', action, resource, context });
      if (props.EventSourceArn.includes(':dynamodb:')) {
        for (const a of ['DescribeStream', 'GetRecords', 'GetShardIterator', 'ListStreams']) as(`dynamodb:${a}`, a === 'ListStreams' ? '*' : props.EventSourceArn);
        const onFailure = props.DestinationConfig?.OnFailure?.Destination;
        if (onFailure) as('sqs:SendMessage', onFailure);
        const table = tables.find((t) => props.EventSourceArn.startsWith(t.arn))!;
        pollers.push(
          startStreamPoller({
            endpoint: dynamoEndpoint,
            tableName: table.name,
            checkpointFile: path.join(dataDir, `stream-checkpoint-${id}.json`),
            invoke: (event: DynamoDBStreamEvent) => pool.invoke(event) as never,
            intervalMs: 50,
            filter,
          }),
        );
      } else {
        const name = props.EventSourceArn.split(':').pop()!;
        for (const a of ['ReceiveMessage', 'DeleteMessage', 'GetQueueAttributes']) as(`sqs:${a}`, props.EventSourceArn);
        const key = sqs.keys.get(name);
        if (key) as('kms:Decrypt', key, { 'kms:ViaService': `sqs.${assembly.naming.region}.amazonaws.com` });
        if (props.FilterCriteria?.Filters?.length) throw new Error(`event source mapping ${id}: SQS filter criteria are not run locally`);
        const concurrency = Math.min(props.ScalingConfig?.MaximumConcurrency ?? 4, 4); // a small machine's share
        pollers.push(startSqsPoller({ queueUrl: sqs.engineUrlOfName(name), invoke: (event: SQSEvent) => pool.invoke(event) as never, waitTimeSeconds: 0, batchSize: Math.min(props.BatchSize ?? 10, 10), concurrency }));
      }
    }
    stops.push(() => Promise.all(pollers.map((p) => p.stop())));

    return {
      baseUrl: api.baseUrl,
      assembly,
      dynamoEndpoint,
      calls: gateway.calls,
      functions: pools,
      smtp,
      smsSink,
      scheduler,
      async idle() {
        await s3.idle();
        await textract.idle();
        await sfn.idle();
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Loads the assembly with the HTTP API's endpoint replaced by the local server's address. */
function loadAssemblyFor(cdkOut: string, apiUrl: string, gatewayUrl: string, stackName?: string): CloudAssembly {
  const probe = loadCloudAssembly(cdkOut, { account: ASSEMBLY_ACCOUNT, region: ASSEMBLY_REGION, stackName });
  const overrides: Record<string, string> = {};
  for (const id of probe.root.ofType('AWS::ApiGatewayV2::Api')) overrides[`${id}.ApiEndpoint`] = apiUrl;
  // A queue URL's host is where the SDK sends SQS calls: here, the gateway.
  for (const t of probe.templates) {
    for (const id of t.ofType('AWS::SQS::Queue')) {
      overrides[id] = overrides[`${id}.QueueUrl`] = `${gatewayUrl}/${ASSEMBLY_ACCOUNT}/${String(t.resolve({ 'Fn::GetAtt': [id, 'QueueName'] }))}`;
    }
  }
  return loadCloudAssembly(cdkOut, { account: ASSEMBLY_ACCOUNT, region: ASSEMBLY_REGION, stackName }, overrides);
}
