/**
 * CDK assertions on the messaging pipeline (lib/messaging-pipeline.ts, lib/messaging/*) inside the synthesized stack,
 * with the messaging context set (a mail domain, an SMS origination id) and the registry's operations, two of which
 * are given the messaging capabilities here (`mail:send`, `sms:send`), so the grants are checked whatever the
 * operation modules declare today. Schedules are managed by the outbox relay (webhook fan-out) alone. Targeted property checks, no snapshots; cdk-nag must pass too.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CfnElement } from 'aws-cdk-lib';
import type { Capability } from '#api/types';
import { loadOperations, type ModuleOperation } from '#lib/registry';
import { MESSAGING_WORKER_TABLE_ACCESS, MESSAGING_WORKERS, type MessagingWorker } from '#lib/table-access';
import { ASYNC_RETRY_ATTEMPTS, MESSAGING_ALARM_THRESHOLDS } from '#lib/messaging-pipeline';
import type { ServiceFunction } from '#lib/service-function';
import { synthesize, type Synthesized } from './synth.ts';

type Statement = { Effect: string; Action: string | string[]; Resource: unknown; Condition?: Record<string, Record<string, unknown>>; Principal?: { Service?: string | string[] } };

const PHONE_ID = 'phone-0123456789abcdef0123456789abcdef';
const CONTEXT = { mailDomain: 'hillcountry.example', smsOriginationIdentity: PHONE_ID, mailSenderIdentities: 'agents@partner.example', stackName: 'tcs-msg' };
/** The capabilities given to two operations for this file. */
const EXTRA: Record<string, Capability[]> = {
  sendTransactionEmail: ['mail:send'],
  startTransactionConversation: ['sms:send'],
};

let s: Synthesized;
let operations: ModuleOperation[];

beforeAll(async () => {
  operations = (await loadOperations()).map((op) => (EXTRA[op.operationId] ? { ...op, uses: [...op.uses, ...EXTRA[op.operationId]] } : op));
  s = await synthesize(CONTEXT, { operations });
}, 300_000); // one synthesis: minutes on a loaded 2-core machine

afterAll(() => {
  s?.cleanup();
});

const m = () => s.stack.messaging;
const idOf = (construct: { node: { defaultChild?: unknown } }) => (construct instanceof CfnElement ? s.stack.getLogicalId(construct) : s.logicalIdOf(construct));
const arnOf = (logicalId: string) => ({ 'Fn::GetAtt': [logicalId, 'Arn'] });
const actionsOf = (st: Statement) => [st.Action].flat();
const json = (v: unknown) => JSON.stringify(v);
const worker = (name: MessagingWorker) => m().workers[name];
const live = (fn: ServiceFunction) => s.liveOf(fn);
const inbound = () => m().inboundMail!;
const envOf = (fn: ServiceFunction) => s.resources[idOf(fn.fn)].Properties.Environment.Variables as Record<string, unknown>;
const partitioned = (tail: string) => ({ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ...tail.split('|').map((p) => (p.startsWith('Ref:') ? { Ref: p.slice(4) } : p))]] });

function statementsOfRole(roleLogicalId: string): Statement[] {
  return s
    .ofType('AWS::IAM::Policy')
    .map(([, r]) => r.Properties)
    .filter((p) => p.Roles.some((r: { Ref: string }) => r.Ref === roleLogicalId))
    .flatMap((p) => p.PolicyDocument.Statement as Statement[]);
}
const statementsOf = (fn: ServiceFunction) => statementsOfRole(s.resources[idOf(fn.fn)].Properties.Role['Fn::GetAtt'][0]);
const serviceActions = (fn: ServiceFunction, service: string) =>
  statementsOf(fn)
    .flatMap(actionsOf)
    .filter((a) => a.startsWith(`${service}:`))
    .sort();
const resourcesFor = (fn: ServiceFunction, action: string) =>
  statementsOf(fn)
    .filter((st) => st.Effect === 'Allow' && actionsOf(st).includes(action))
    .flatMap((st) => [st.Resource].flat());
/** What a stream event source mapping grants its function. */
const STREAM_READS = ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams'];
const groupsUsing = (capability: Capability) => new Set(operations.filter((op) => op.uses.includes(capability)).map((op) => op.group));

describe('cdk-nag (AwsSolutions) with messaging context and capabilities', () => {
  it('synthesizes without unacknowledged findings', () => {
    expect(s.synthError === undefined ? undefined : String((s.synthError as Error).message)).toBeUndefined();
    const report = JSON.parse(readFileSync(path.join(s.outdir, 'validation-report.json'), 'utf8'));
    expect(report.pluginReports.flatMap((p: { violations: { ruleName: string }[] }) => p.violations.map((v) => v.ruleName))).toEqual([]);
  });
});

describe('workers', () => {
  it('are Node.js 22 arm64 functions with only the table actions they call, on the base table (public-links: and its indexes)', () => {
    const tableArn = arnOf(idOf(s.stack.table.table));
    for (const name of MESSAGING_WORKERS) {
      const fn = worker(name);
      expect(s.resources[idOf(fn.fn)].Properties, name).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], TracingConfig: { Mode: 'Active' } });
      // message-send's stream mapping adds the stream reads, on the stream (checked below).
      const tableActions = serviceActions(fn, 'dynamodb').filter((a) => name !== 'message-send' || !STREAM_READS.includes(a));
      expect(tableActions, name).toEqual([...MESSAGING_WORKER_TABLE_ACCESS[name]].sort());
      // public-links also reads GSI1 (a deal's disclosure packages, for its client portal).
      const onIndexes = name === 'public-links' ? [tableArn, { 'Fn::Join': ['', [tableArn, '/index/*']] }] : [tableArn];
      for (const action of MESSAGING_WORKER_TABLE_ACCESS[name]) expect(resourcesFor(fn, action), `${name} ${action}`).toEqual(onIndexes);
    }
  });

  it('get the environment their ports read, and nothing of the others', () => {
    const keys = (name: MessagingWorker) => Object.keys(envOf(worker(name))).sort();
    const powertools = ['POWERTOOLS_SERVICE_NAME'];
    // Workers holding the S3 client are bundled without the X-Ray SDK (lib/service-function.ts `bundlesXraySdk`).
    const noXray = [...powertools, 'POWERTOOLS_TRACE_ENABLED'];
    const sorted = (...k: string[]) => k.sort();
    expect(keys('email-events')).toEqual(sorted('NODE_OPTIONS', ...powertools, 'TABLE_NAME'));
    expect(keys('inbound-sms')).toEqual(sorted('NODE_OPTIONS', ...powertools, 'TABLE_NAME'));
    expect(keys('inbound-email')).toEqual(sorted('DOCUMENTS_BUCKET', 'INBOUND_MAIL_DOMAIN', 'NODE_OPTIONS', ...noXray, 'TABLE_NAME'));
    expect(keys('public-links')).toEqual(sorted('DOCUMENTS_BUCKET', 'NODE_OPTIONS', ...noXray, 'TABLE_NAME'));
    // scheduled-send queues (the mail identities only); message-send holds the transports.
    expect(keys('scheduled-send')).toEqual(sorted('INBOUND_MAIL_DOMAIN', 'MAIL_FROM_ADDRESS', 'NODE_OPTIONS', ...noXray, 'TABLE_NAME'));
    expect(envOf(worker('scheduled-send'))).toMatchObject({ MAIL_FROM_ADDRESS: 'deals@hillcountry.example', INBOUND_MAIL_DOMAIN: 'reply.hillcountry.example' });
    expect(keys('message-send')).toEqual(
      sorted('DOCUMENTS_BUCKET', 'INBOUND_MAIL_DOMAIN', 'MAIL_FROM_ADDRESS', 'NODE_OPTIONS', ...noXray, 'SES_CONFIGURATION_SET', 'SMS_CONFIGURATION_SET', 'SMS_ORIGINATION_IDENTITY', 'TABLE_NAME'),
    );
  });

  it('name their Powertools service after the worker; the S3 workers trace without the X-Ray SDK', () => {
    for (const name of MESSAGING_WORKERS) {
      const env = envOf(worker(name));
      expect(env.POWERTOOLS_SERVICE_NAME, name).toBe(name);
      const holdsS3 = name === 'inbound-email' || name === 'scheduled-send' || name === 'public-links' || name === 'message-send';
      expect(env.POWERTOOLS_TRACE_ENABLED, name).toBe(holdsS3 ? 'false' : undefined);
    }
  });

  it('asynchronous workers retry twice, then record the failure in the failure queue; public-links is synchronous', () => {
    const configs = s.ofType('AWS::Lambda::EventInvokeConfig').map(([, r]) => r.Properties);
    for (const name of ['email-events', 'inbound-email', 'inbound-sms', 'scheduled-send'] as const) {
      const mine = configs.filter((c) => c.FunctionName.Ref === idOf(worker(name).fn));
      expect(mine, name).toHaveLength(1);
      expect(mine[0]).toMatchObject({
        MaximumRetryAttempts: ASYNC_RETRY_ATTEMPTS,
        // Asynchronous invokers (S3, SNS, the scheduler) name the alias: its config is the one that applies.
        Qualifier: { 'Fn::Select': [7, { 'Fn::Split': [':', live(worker(name))] }] },
        DestinationConfig: { OnFailure: { Destination: arnOf(idOf(m().failureQueue)) } },
      });
      expect(resourcesFor(worker(name), 'sqs:SendMessage'), name).toEqual([arnOf(idOf(m().failureQueue))]);
    }
    expect(configs.filter((c) => c.FunctionName.Ref === idOf(worker('public-links').fn))).toHaveLength(0);
  });

  it('public-links and message-send read uploaded documents only; inbound-email reads received mail only; scheduled-send reads none', () => {
    const bucket = arnOf(idOf(s.stack.extraction.bucket));
    const objects = (prefix: string) => ({ 'Fn::Join': ['', [bucket, `/${prefix}*`]] });
    for (const name of ['public-links', 'message-send'] as const) {
      expect(serviceActions(worker(name), 's3'), name).toEqual(['s3:GetObject']);
      expect(resourcesFor(worker(name), 's3:GetObject'), name).toEqual([objects('org/')]);
    }
    expect(serviceActions(worker('inbound-email'), 's3')).toEqual(['s3:GetObject']);
    expect(resourcesFor(worker('inbound-email'), 's3:GetObject')).toEqual([{ 'Fn::Join': ['', [arnOf(idOf(inbound().bucket)), '/inbound/*']] }]);
    expect(envOf(worker('inbound-email')).DOCUMENTS_BUCKET).toEqual({ Ref: idOf(inbound().bucket) });
    for (const name of ['email-events', 'inbound-sms', 'scheduled-send'] as const) expect(serviceActions(worker(name), 's3'), name).toEqual([]);
  });

  it('only message-send holds the transports: SES send, SendTextMessage; scheduled-send sends nothing', () => {
    expect(serviceActions(worker('message-send'), 'ses')).toEqual(['ses:SendEmail', 'ses:SendRawEmail']);
    expect(serviceActions(worker('message-send'), 'sms-voice')).toEqual(['sms-voice:SendTextMessage']);
    for (const name of ['scheduled-send', 'email-events', 'inbound-email', 'public-links'] as const) expect(serviceActions(worker(name), 'ses'), name).toEqual([]);
    expect(serviceActions(worker('scheduled-send'), 'sms-voice')).toEqual([]);
  });

  it('message-send reads the table stream, filtered to message.queued and service_email.queued outbox inserts, with a DLQ for records it gives up on', () => {
    const mappings = s.ofType('AWS::Lambda::EventSourceMapping').filter(([, r]) => String(json(r.Properties.DestinationConfig)).includes(idOf(m().sends.deadLetterQueue)));
    expect(mappings.map(([id]) => id)).toEqual([expect.stringMatching(/^MessagingMessageSendLive/)]);
    expect(resourcesFor(worker('message-send'), 'dynamodb:GetRecords')).toEqual([{ 'Fn::GetAtt': [idOf(s.stack.table.table), 'StreamArn'] }]);
    s.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      StartingPosition: 'TRIM_HORIZON',
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      MaximumRetryAttempts: 10,
      DestinationConfig: { OnFailure: { Destination: arnOf(idOf(m().sends.deadLetterQueue)) } },
      FilterCriteria: { Filters: [{ Pattern: json({ eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: ['OutboxEvent'] }, envelope: { M: { eventType: { S: ['message.queued', 'service_email.queued'] } } } } } }) }] },
    });
    // Service email shares the send worker's mapping: the stream keeps two Lambda consumers (the recommended maximum).
    const streamArn = json({ 'Fn::GetAtt': [idOf(s.stack.table.table), 'StreamArn'] });
    expect(s.ofType('AWS::Lambda::EventSourceMapping').filter(([, r]) => json(r.Properties.EventSourceArn) === streamArn)).toHaveLength(2);
    expect(s.ofType('AWS::Lambda::EventInvokeConfig').filter(([, r]) => r.Properties.FunctionName.Ref === idOf(worker('message-send').fn))).toHaveLength(0);
  });
});

describe('email (SES)', () => {
  it('has a configuration set with reputation metrics and bounce/complaint suppression', () => {
    expect(s.resources[idOf(m().mail.configurationSet)].Properties).toMatchObject({
      ReputationOptions: { ReputationMetricsEnabled: true },
      SuppressionOptions: { SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
    });
  });

  it('publishes delivery, bounce, complaint, reject and delay events to an encrypted topic that email-events subscribes to', () => {
    const [[, destination], ...rest] = s.ofType('AWS::SES::ConfigurationSetEventDestination');
    expect(rest).toHaveLength(0);
    expect(destination.Properties.ConfigurationSetName).toEqual({ Ref: idOf(m().mail.configurationSet) });
    expect(destination.Properties.EventDestination).toMatchObject({ Enabled: true, SnsDestination: { TopicARN: { Ref: idOf(m().mail.eventsTopic) } } });
    expect([...destination.Properties.EventDestination.MatchingEventTypes].sort()).toEqual(['bounce', 'complaint', 'delivery', 'deliveryDelay', 'reject']);
    expect(s.resources[idOf(m().mail.eventsTopic)].Properties.KmsMasterKeyId).toEqual(arnOf(idOf(m().topicKey)));
    s.template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'lambda',
      TopicArn: { Ref: idOf(m().mail.eventsTopic) },
      Endpoint: live(worker('email-events')),
    });
  });

  it('lets only SES of this account and configuration set publish to the events topic, over TLS', () => {
    const policies = s.ofType('AWS::SNS::TopicPolicy').filter(([, p]) => json(p.Properties.Topics) === json([{ Ref: idOf(m().mail.eventsTopic) }]));
    const statements = policies.flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Statement[]);
    const ses = statements.filter((st) => st.Principal?.Service === 'ses.amazonaws.com');
    expect(ses).toHaveLength(1);
    expect(ses[0]).toMatchObject({ Effect: 'Allow', Action: 'sns:Publish' });
    expect(Object.keys(ses[0].Condition!.StringEquals).sort()).toEqual(['AWS:SourceAccount', 'AWS:SourceArn']);
    expect(statements.some((st) => st.Effect === 'Deny' && json(st.Condition) === '{"Bool":{"aws:SecureTransport":"false"}}')).toBe(true);
  });

  it('verifies the mailDomain as an identity (Easy DKIM) sending in the configuration set, and outputs its DKIM records', () => {
    s.template.hasResourceProperties('AWS::SES::EmailIdentity', {
      EmailIdentity: 'hillcountry.example',
      ConfigurationSetAttributes: { ConfigurationSetName: { Ref: idOf(m().mail.configurationSet) } },
    });
    for (const i of [1, 2, 3]) s.template.hasOutput(`MailDkim${i}`, {});
  });
});

describe('inbound mail', () => {
  const ruleSetName = 'tcs-msg-inbound';

  it('has a receipt rule set and a rule storing mail for the inbound domain under inbound/ (scanned), after the bucket policy', () => {
    s.template.hasResourceProperties('AWS::SES::ReceiptRuleSet', { RuleSetName: ruleSetName });
    const [[ruleId, rule], ...rest] = s.ofType('AWS::SES::ReceiptRule');
    expect(rest).toHaveLength(0);
    expect(rule.Properties).toMatchObject({
      RuleSetName: { Ref: idOf(inbound().ruleSet) },
      Rule: {
        Name: 'store-replies',
        Enabled: true,
        Recipients: ['reply.hillcountry.example'],
        ScanEnabled: true,
        Actions: [{ S3Action: { BucketName: { Ref: idOf(inbound().bucket) }, ObjectKeyPrefix: 'inbound/' } }],
      },
    });
    const policyId = s.ofType('AWS::S3::BucketPolicy').find(([, p]) => p.Properties.Bucket.Ref === idOf(inbound().bucket))![0];
    expect((s.template.toJSON().Resources[ruleId].DependsOn ?? []) as string[]).toContain(policyId);
  });

  it('lets SES put objects under inbound/ only, for this account and this rule only', () => {
    const [[, policy]] = s.ofType('AWS::S3::BucketPolicy').filter(([, p]) => p.Properties.Bucket.Ref === idOf(inbound().bucket));
    const ses = (policy.Properties.PolicyDocument.Statement as Statement[]).filter((st) => st.Principal?.Service === 'ses.amazonaws.com');
    expect(ses).toHaveLength(1);
    expect(ses[0]).toMatchObject({
      Effect: 'Allow',
      Action: 's3:PutObject',
      Resource: { 'Fn::Join': ['', [arnOf(idOf(inbound().bucket)), '/inbound/*']] },
      Condition: {
        StringEquals: {
          'aws:SourceAccount': { Ref: 'AWS::AccountId' },
          'aws:SourceArn': partitioned(`:ses:|Ref:AWS::Region|:|Ref:AWS::AccountId|:receipt-rule-set/${ruleSetName}:receipt-rule/store-replies`),
        },
      },
    });
  });

  it('notifies inbound-email of objects created under inbound/, and outputs the activation command', () => {
    const [[, notifications], ...rest] = s.ofType('Custom::S3BucketNotifications').filter(([, n]) => n.Properties.BucketName.Ref === idOf(inbound().bucket));
    expect(rest).toHaveLength(0);
    expect(notifications.Properties.NotificationConfiguration.LambdaFunctionConfigurations).toEqual([
      {
        Events: ['s3:ObjectCreated:*'],
        Filter: { Key: { FilterRules: [{ Name: 'prefix', Value: 'inbound/' }] } },
        LambdaFunctionArn: live(worker('inbound-email')),
      },
    ]);
    const output = s.template.toJSON().Outputs.InboundMailActivateCommand;
    expect(output.Value).toBe(`aws ses set-active-receipt-rule-set --rule-set-name ${ruleSetName}`);
    // Activating replaces the account's active rule set: the output says so and how to check first.
    expect(output.Description).toMatch(/replaces the account's active rule set.*aws ses describe-active-receipt-rule-set/);
  });

  it('stores mail in its own private SSE-S3 bucket, so neither the data key nor the documents bucket names SES', () => {
    expect(s.resources[idOf(inbound().bucket)].Properties).toMatchObject({
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      LoggingConfiguration: { DestinationBucketName: { Ref: idOf(s.stack.extraction.accessLogsBucket) }, LogFilePrefix: 'inbound-mail/' },
    });
    expect(s.resources[idOf(inbound().bucket)].DeletionPolicy).toBe('Retain');
    const keyPolicy = json(s.resources[idOf(s.stack.dataKey.key)].Properties.KeyPolicy);
    expect(keyPolicy).not.toContain('ses.amazonaws.com');
    const documentsPolicies = s.ofType('AWS::S3::BucketPolicy').filter(([, p]) => p.Properties.Bucket.Ref === idOf(s.stack.extraction.bucket));
    expect(json(documentsPolicies)).not.toContain('ses.amazonaws.com');
  });
});

describe('SMS', () => {
  it('has an End User Messaging configuration set and an encrypted inbound topic that inbound-sms subscribes to', () => {
    s.template.resourceCountIs('AWS::SMSVOICE::ConfigurationSet', 1);
    expect(s.resources[idOf(m().sms.inboundTopic)].Properties.KmsMasterKeyId).toEqual(arnOf(idOf(m().topicKey)));
    s.template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'lambda',
      TopicArn: { Ref: idOf(m().sms.inboundTopic) },
      Endpoint: live(worker('inbound-sms')),
    });
    s.template.hasOutput('InboundSmsTopicArn', { Value: { Ref: idOf(m().sms.inboundTopic) } });
  });

  it('lets End User Messaging of this account publish inbound texts, nobody else', () => {
    const policies = s.ofType('AWS::SNS::TopicPolicy').filter(([, p]) => json(p.Properties.Topics) === json([{ Ref: idOf(m().sms.inboundTopic) }]));
    const allows = policies.flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Statement[]).filter((st) => st.Effect === 'Allow');
    expect(allows).toHaveLength(1);
    expect(allows[0]).toMatchObject({
      Principal: { Service: 'sms-voice.amazonaws.com' },
      Action: 'sns:Publish',
      Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } }, ArnLike: { 'aws:SourceArn': partitioned(':sms-voice:|Ref:AWS::Region|:|Ref:AWS::AccountId|:*') } },
    });
  });
});

describe('topic key', () => {
  it('rotates, and lets SES, End User Messaging and CloudWatch alarms (the alarm topic) of this account encrypt for the topics', () => {
    const key = s.resources[idOf(m().topicKey)];
    expect(key.Properties.EnableKeyRotation).toBe(true);
    const statements = key.Properties.KeyPolicy.Statement as Statement[];
    const services = statements.filter((st) => st.Principal?.Service);
    expect(services).toHaveLength(1); // one statement for both (the policies are minimized)
    expect([services[0].Principal!.Service].flat().sort()).toEqual(['cloudwatch.amazonaws.com', 'ses.amazonaws.com', 'sms-voice.amazonaws.com']);
    expect(services[0]).toMatchObject({ Effect: 'Allow', Resource: '*', Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } } });
    expect(actionsOf(services[0]).sort()).toEqual(['kms:Decrypt', 'kms:GenerateDataKey*']);
  });
});

describe('scheduler', () => {
  const role = () => s.resources[idOf(m().scheduler.role)];

  it('has a schedule group and a role trusted by EventBridge Scheduler for this account and group only', () => {
    s.template.resourceCountIs('AWS::Scheduler::ScheduleGroup', 1);
    expect(role().Properties.AssumeRolePolicyDocument.Statement).toEqual([
      {
        Effect: 'Allow',
        Action: 'sts:AssumeRole',
        Principal: { Service: 'scheduler.amazonaws.com' },
        Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' }, 'aws:SourceArn': arnOf(idOf(m().scheduler.group)) } },
      },
    ]);
  });

  it('the role may invoke its targets alone (scheduled-send, workspace purge and export) and write the encrypted dead-letter queue, nothing else', () => {
    const statements = statementsOfRole(idOf(m().scheduler.role));
    const targets = [worker('scheduled-send'), s.stack.lifecycle.purge, s.stack.lifecycle.export].map(live);
    const invoke = statements.filter((st) => actionsOf(st).includes('lambda:InvokeFunction'));
    expect(invoke.map(actionsOf)).toEqual([['lambda:InvokeFunction']]);
    expect([invoke[0].Resource].flat()).toHaveLength(targets.length);
    expect([invoke[0].Resource].flat()).toEqual(expect.arrayContaining(targets));
    expect(statements.map((st) => [actionsOf(st), st.Resource])).toContainEqual([['sqs:SendMessage'], arnOf(idOf(m().scheduler.deadLetterQueue))]);
    expect(statements.map((st) => [actionsOf(st), st.Resource])).toContainEqual([['kms:Decrypt', 'kms:DescribeKey', 'kms:Encrypt', 'kms:GenerateDataKey'], arnOf(s.logicalIdOf(s.stack.dataKey.key))]);
    expect(statements).toHaveLength(3);
  });

  it('keeps failed invocations 14 days in queues encrypted with the data key, TLS-only (the scheduler DLQ and the failure queue)', () => {
    for (const queue of [m().scheduler.deadLetterQueue, m().failureQueue]) {
      const id = idOf(queue);
      expect(s.resources[id].Properties).toMatchObject({ KmsMasterKeyId: arnOf(s.logicalIdOf(s.stack.dataKey.key)), MessageRetentionPeriod: 14 * 86_400 });
      const statements = s
        .ofType('AWS::SQS::QueuePolicy')
        .filter(([, p]) => p.Properties.Queues.some((q: { Ref: string }) => q.Ref === id))
        .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Statement[]);
      expect(statements.some((st) => st.Effect === 'Deny' && json(st.Condition) === '{"Bool":{"aws:SecureTransport":"false"}}'), id).toBe(true);
    }
  });
});

describe('API groups', () => {
  const groupName = () => m().scheduler.group.scheduleGroupName;

  it('mail:send: SES send on the configured identities and the configuration set, SMTP secrets under tcs/mail/, the mail environment', () => {
    expect(groupsUsing('mail:send').size).toBeGreaterThan(0);
    for (const group of groupsUsing('mail:send')) {
      const fn = s.stack.functions.get(group)!;
      expect(serviceActions(fn, 'ses'), group).toEqual(['ses:SendEmail', 'ses:SendRawEmail']);
      const identity = (name: string) => partitioned(`:ses:|Ref:AWS::Region|:|Ref:AWS::AccountId|:identity/${name}`);
      expect(resourcesFor(fn, 'ses:SendRawEmail'), group).toEqual(
        expect.arrayContaining([identity('hillcountry.example'), identity('deals@hillcountry.example'), identity('agents@partner.example'), identity('partner.example')]),
      );
      expect(resourcesFor(fn, 'ses:SendRawEmail'), group).toHaveLength(5); // + the configuration set
      expect(resourcesFor(fn, 'ses:SendRawEmail'), group).toContainEqual(partitioned(`:ses:|Ref:AWS::Region|:|Ref:AWS::AccountId|:configuration-set/|Ref:${idOf(m().mail.configurationSet)}`));
      expect(resourcesFor(fn, 'secretsmanager:GetSecretValue'), group).toEqual([partitioned(':secretsmanager:|Ref:AWS::Region|:|Ref:AWS::AccountId|:secret:tcs/mail/*')]);
      expect(envOf(fn), group).toMatchObject({
        MAIL_FROM_ADDRESS: 'deals@hillcountry.example',
        INBOUND_MAIL_DOMAIN: 'reply.hillcountry.example',
        SES_CONFIGURATION_SET: { Ref: idOf(m().mail.configurationSet) },
        PUBLIC_BASE_URL: { 'Fn::GetAtt': [idOf(s.stack.httpApi.api), 'ApiEndpoint'] },
      });
    }
  });

  it('sms:send: SendTextMessage on the origination number, its opt-out list and the configuration set', () => {
    expect(groupsUsing('sms:send').size).toBeGreaterThan(0);
    for (const group of groupsUsing('sms:send')) {
      const fn = s.stack.functions.get(group)!;
      expect(serviceActions(fn, 'sms-voice'), group).toEqual(['sms-voice:SendTextMessage']);
      const phone = partitioned(`:sms-voice:|Ref:AWS::Region|:|Ref:AWS::AccountId|:phone-number/${PHONE_ID}`);
      expect(resourcesFor(fn, 'sms-voice:SendTextMessage')).toEqual(
        expect.arrayContaining([arnOf(idOf(m().sms.configurationSet)), phone, partitioned(':sms-voice:|Ref:AWS::Region|:|Ref:AWS::AccountId|:opt-out-list/Default')]),
      );
      expect(resourcesFor(fn, 'sms-voice:SendTextMessage')).toHaveLength(3);
      expect(envOf(fn), group).toMatchObject({ SMS_ORIGINATION_IDENTITY: phone, SMS_CONFIGURATION_SET: { Ref: idOf(m().sms.configurationSet) } });
    }
  });

  it('the outbox relay (webhook fan-out), not an API group, creates/deletes schedules of the group only, PassRole to the scheduler only, the scheduler environment', () => {
    for (const [group, fn] of s.stack.functions) {
      expect(serviceActions(fn, 'scheduler'), group).toEqual([]);
      expect(serviceActions(fn, 'iam'), group).toEqual([]);
      expect(Object.keys(envOf(fn)), group).not.toContain('SCHEDULE_GROUP');
    }
    {
      const fn = s.stack.webhooks.fanout;
      const group = 'webhook-fanout';
      expect(serviceActions(fn, 'scheduler'), group).toEqual(['scheduler:CreateSchedule', 'scheduler:DeleteSchedule']);
      expect(resourcesFor(fn, 'scheduler:CreateSchedule')).toEqual([partitioned(`:scheduler:|Ref:AWS::Region|:|Ref:AWS::AccountId|:schedule/${groupName()}/*`)]);
      const passRole = statementsOf(fn).filter((st) => actionsOf(st).includes('iam:PassRole'));
      expect(passRole).toEqual([
        { Effect: 'Allow', Action: 'iam:PassRole', Resource: arnOf(idOf(m().scheduler.role)), Condition: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } } },
      ]);
      expect(envOf(fn), group).toMatchObject({
        SCHEDULE_GROUP: groupName(),
        SCHEDULER_ROLE_ARN: arnOf(idOf(m().scheduler.role)),
        SCHEDULER_DLQ_ARN: arnOf(idOf(m().scheduler.deadLetterQueue)),
        SCHEDULE_TARGET_SCHEDULED_SEND_ARN: live(worker('scheduled-send')),
        SCHEDULE_TARGET_WORKSPACE_PURGE_ARN: live(s.stack.lifecycle.purge),
        SCHEDULE_TARGET_WORKSPACE_EXPORT_ARN: live(s.stack.lifecycle.export),
      });
    }
  });

  it('a group without a messaging capability gets none of these grants nor their environment', () => {
    for (const [group, fn] of s.stack.functions) {
      const env = Object.keys(envOf(fn));
      if (!groupsUsing('mail:send').has(group)) {
        expect(serviceActions(fn, 'ses'), group).toEqual([]);
        expect(serviceActions(fn, 'secretsmanager'), group).toEqual([]);
        // A group that queues (messages:queue) names the mail identities but sends nothing.
        if (!groupsUsing('messages:queue').has(group)) expect(env, group).not.toContain('MAIL_FROM_ADDRESS');
      }
      if (!groupsUsing('sms:send').has(group)) {
        expect(serviceActions(fn, 'sms-voice'), group).toEqual([]);
        expect(env, group).not.toContain('SMS_ORIGINATION_IDENTITY');
      }
      if (!groupsUsing('mail:send').has(group) && !groupsUsing('sms:send').has(group) && !groupsUsing('messages:queue').has(group)) expect(env, group).not.toContain('PUBLIC_BASE_URL');
    }
  });

  it('the groups that queue service email (account, disclosures, partner) get no SES or Secrets Manager grant, only the table', () => {
    for (const group of ['account', 'disclosures', 'partner'] as const) {
      expect(groupsUsing('messages:queue').has(group), group).toBe(true);
      const fn = s.stack.functions.get(group)!;
      expect(serviceActions(fn, 'ses'), group).toEqual([]);
      expect(serviceActions(fn, 'secretsmanager'), group).toEqual([]);
      expect(serviceActions(fn, 'dynamodb'), group).toContain('dynamodb:TransactWriteItems');
    }
  });
});

describe('public route', () => {
  it('routes GET /l/{token} to public-links, with no authorizer', () => {
    const nested = s.nested(s.stack.httpApi.routesStack);
    const routes = nested.ofType('AWS::ApiGatewayV2::Route').filter(([, r]) => r.Properties.RouteKey === 'GET /l/{token}');
    expect(routes).toHaveLength(1);
    expect(routes[0][1].Properties.AuthorizationType ?? 'NONE').toBe('NONE');
    const integrationId = routes[0][1].Properties.Target['Fn::Join'][1][1].Ref as string;
    // The routes' nested stack gets the alias ARN as a parameter.
    const param = nested.resources[integrationId].Properties.IntegrationUri.Ref as string;
    const [[, routesStack]] = s.ofType('AWS::CloudFormation::Stack').filter(([id]) => id.startsWith('HttpRoutes'));
    expect(routesStack.Properties.Parameters[param]).toEqual(live(worker('public-links')));
  });
});

describe('alarms and dashboard', () => {
  it('alarms on the failure queue, the scheduler DLQ and its delivery, schedules the relay could not create, worker errors, and SES reputation', () => {
    for (const queue of [m().failureQueue, m().scheduler.deadLetterQueue, m().sends.deadLetterQueue]) {
      s.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Namespace: 'AWS/SQS',
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [idOf(queue), 'QueueName'] } }],
        Threshold: 0,
        ComparisonOperator: 'GreaterThanThreshold',
      });
    }
    s.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/Scheduler',
      MetricName: 'InvocationsFailedToBeSentToDeadLetterCount',
      Dimensions: [{ Name: 'ScheduleGroup', Value: m().scheduler.group.scheduleGroupName }],
      Threshold: 0,
    });
    // The outbox relay's failures to create a requested schedule (shared/use-cases/schedule-relay.ts), any in 15 min.
    s.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'TransactionCoordination',
      MetricName: 'ScheduleRequestsFailed',
      Dimensions: [{ Name: 'service', Value: 'webhook-fanout' }],
      Statistic: 'Sum',
      Period: 900,
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
    });
    s.template.hasResourceProperties('AWS::CloudWatch::Alarm', { Namespace: 'AWS/SES', MetricName: 'Reputation.BounceRate', Threshold: MESSAGING_ALARM_THRESHOLDS.bounceRate, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    s.template.hasResourceProperties('AWS::CloudWatch::Alarm', { Namespace: 'AWS/SES', MetricName: 'Reputation.ComplaintRate', Threshold: MESSAGING_ALARM_THRESHOLDS.complaintRate });
    const errors = s.ofType('AWS::CloudWatch::Alarm').filter(([, a]) => a.Properties.Metrics?.some((x: { Label?: string }) => x.Label === 'worker errors'));
    expect(errors).toHaveLength(1);
    const metricFns = errors[0][1].Properties.Metrics.filter((x: { MetricStat?: unknown }) => x.MetricStat).map((x: { MetricStat: { Metric: { Dimensions: { Value: { Ref: string } }[] } } }) => x.MetricStat.Metric.Dimensions[0].Value.Ref);
    expect(metricFns.sort()).toEqual(MESSAGING_WORKERS.map((w) => idOf(worker(w).fn)).sort());
  });

  it('lists its alarms with the dashboard alarms and adds a row of graphs', () => {
    expect(m().alarms).toHaveLength(9);
    for (const alarm of m().alarms) expect(s.stack.dashboard.alarms).toContain(alarm);
    const [[, dashboard]] = s.ofType('AWS::CloudWatch::Dashboard');
    const body = json(dashboard.Properties.DashboardBody);
    for (const metric of ['Reputation.BounceRate', 'InvocationAttemptCount', 'InvocationsSentToDeadLetterCount']) expect(body).toContain(metric);
  });
});

describe('outputs', () => {
  it('names the SES configuration set', () => {
    s.template.hasOutput('MailConfigurationSetName', { Value: { Ref: idOf(m().mail.configurationSet) } });
  });
});
