/**
 * CDK assertions on the on-call wiring (lib/alarms/): every alarm notifies the alarm topic on ALARM and OK and links
 * a section of docs/runbook.md that exists; the topic (KMS, TLS only, optional email); the alarms added for issue 15
 * (API 5xx without 501, p99 latency, 4xx and 429 surges, API function throttles, DynamoDB system errors and throttles,
 * queue ages, extraction aborted/throttled, extraction system failures without user document errors).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, Aspects, type CfnElement, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { NotifyEveryAlarm } from '#lib/alarms/alarm-topic';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as sns from 'aws-cdk-lib/aws-sns';
import { API_ALARM_THRESHOLDS } from '#lib/alarms/api-alarms';
import { DLQ_AGE_ALARM_SECONDS } from '#lib/alarms/queue-alarms';
import { DEFAULT_RUNBOOK_BASE_URL, withRunbook } from '#lib/alarms/runbook';
import { USER_DOCUMENT_ERRORS } from '#lib/extraction-pipeline';
import { deliveryQueueAgeAlarmSeconds } from '#lib/webhook-pipeline';
import { retryScheduleSeconds } from '#events/retry-schedule';
import { synthesize, synthesizeDefault, type Resource, type Synthesized } from './synth.ts';

const RUNBOOK = readFileSync(new URL('../../docs/runbook.md', import.meta.url), 'utf8');

/** GitHub's anchor of a Markdown heading: lower case, punctuation other than `-`/`_` dropped, spaces → `-`. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
const ANCHORS = new Set([...RUNBOOK.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1])));

let s: Synthesized;
let alarms: [string, Resource][];
let topicRef: { Ref: string };

beforeAll(async () => {
  s = await synthesizeDefault();
  alarms = s.ofType('AWS::CloudWatch::Alarm');
  topicRef = { Ref: s.logicalIdOf(s.stack.alarmTopic.topic) };
  // The partner tier's alarms are in its nested stack (lib/alarms/partner-alarms.ts): the topic reaches them as a
  // parameter the main stack sets.
  const partner = s.stack.partnerApi;
  if (partner) {
    const resource = partner.nestedStackResource as CfnElement;
    const parameters: Record<string, unknown> = s.resources[Stack.of(resource).getLogicalId(resource)].Properties.Parameters ?? {};
    const resolved = (v: any) => (typeof v?.Ref === 'string' && v.Ref in parameters ? parameters[v.Ref] : v);
    for (const [id, a] of s.nested(partner).ofType('AWS::CloudWatch::Alarm')) {
      const { AlarmActions, OKActions } = a.Properties;
      alarms.push([`PartnerTier/${id}`, { ...a, Properties: { ...a.Properties, AlarmActions: AlarmActions?.map(resolved), OKActions: OKActions?.map(resolved) } }]);
    }
  }
}, 300_000);
afterAll(() => s?.cleanup());

/** The alarm resource of an L2 alarm. */
const alarmOf = (alarm: cloudwatch.Alarm) => s.resources[s.logicalIdOf(alarm)].Properties;
/** Every metric (MetricStat) an alarm's math reads, as `{Namespace, MetricName, Dimensions}`. */
const metricsOf = (props: Record<string, any>) => (props.Metrics ?? []).filter((m: any) => m.MetricStat).map((m: any) => m.MetricStat.Metric);

describe('every alarm', () => {
  it('notifies the alarm topic on ALARM and on OK', () => {
    expect(alarms.length).toBeGreaterThan(30);
    for (const [id, alarm] of alarms) {
      expect(alarm.Properties.AlarmActions, id).toContainEqual(topicRef);
      expect(alarm.Properties.OKActions, id).toContainEqual(topicRef);
    }
  });

  it('ends its description with a link to a section of docs/runbook.md that exists, within 1,024 characters', () => {
    const used = new Set<string>();
    for (const [id, alarm] of alarms) {
      const description: string = alarm.Properties.AlarmDescription;
      const link = /Runbook: (\S+)#([a-z0-9-]+)$/.exec(description);
      expect(link, `${id}: ${description}`).not.toBeNull();
      expect(link![1]).toBe(DEFAULT_RUNBOOK_BASE_URL);
      expect(ANCHORS, `${id} links #${link![2]}`).toContain(link![2]);
      expect(description.length, id).toBeLessThanOrEqual(1024);
      used.add(link![2]);
    }
    // Every alarm section of the runbook is linked by some alarm (no stale sections).
    const sections = [...RUNBOOK.matchAll(/^## (.+)$/gm)].map((m) => slug(m[1])).filter((a) => a !== 'before-you-start');
    expect(sections.filter((a) => !used.has(a))).toEqual([]);
  });

  it('passes cdk-nag and raises no error annotation', () => {
    expect(s.synthError).toBeUndefined();
    Annotations.fromStack(s.stack).hasNoError('*', Match.anyValue());
  });
});

describe('alarm topic', () => {
  it('is encrypted with the stack key, refuses non-TLS publishing, and lets CloudWatch use the key', () => {
    s.template.hasResourceProperties('AWS::SNS::Topic', {
      KmsMasterKeyId: { 'Fn::GetAtt': [s.logicalIdOf(s.stack.messaging.topicKey), 'Arn'] },
    });
    s.template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      Topics: [topicRef],
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
    const key = s.resources[s.logicalIdOf(s.stack.messaging.topicKey)];
    const grant = key.Properties.KeyPolicy.Statement.find((st: any) => [st.Principal?.Service].flat().includes('cloudwatch.amazonaws.com'));
    expect(grant).toMatchObject({ Effect: 'Allow', Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } } });
    expect([grant.Action].flat().sort()).toEqual(['kms:Decrypt', 'kms:GenerateDataKey*']);
    s.template.hasOutput('AlarmTopicArn', { Value: topicRef });
  });

  it('has no email subscription without alarmEmail', () => {
    expect(s.ofType('AWS::SNS::Subscription').filter(([, r]) => r.Properties.Protocol === 'email')).toEqual([]);
  });
});

describe('context: alarmEmail, alarmTopicArn, runbookBaseUrl', () => {
  let c: Synthesized;
  const external = 'arn:aws:sns:eu-west-1:123456789012:central-paging';
  const base = 'https://github.com/acme/tcs/blob/main/docs/runbook.md';
  beforeAll(async () => {
    c = await synthesize({ alarmEmail: 'oncall@example.com', alarmTopicArn: external, runbookBaseUrl: base });
  }, 300_000);
  afterAll(() => c?.cleanup());

  it('subscribes the email address to the alarm topic', () => {
    c.template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'oncall@example.com',
      TopicArn: { Ref: c.logicalIdOf(c.stack.alarmTopic.topic) },
    });
  });

  it('notifies the external topic too, and links the runbook at runbookBaseUrl', () => {
    for (const [id, alarm] of c.ofType('AWS::CloudWatch::Alarm')) {
      expect(alarm.Properties.AlarmActions, id).toContain(external);
      expect(alarm.Properties.OKActions, id).toContain(external);
      expect(alarm.Properties.AlarmDescription, id).toMatch(new RegExp(`Runbook: ${base.replace(/[.]/g, '\\.')}#[a-z0-9-]+$`));
    }
  });

  it('refuses an alarmEmail that is not an address', async () => {
    await expect(synthesize({ alarmEmail: 'oncall' })).rejects.toThrow(/alarmEmail/);
  });
});

describe('NotifyEveryAlarm', () => {
  it('wires alarms added anywhere, L2 or bare CfnAlarm, and flags one without a runbook link', () => {
    const app = new App();
    const stack = new Stack(app, 'S');
    const topic = new sns.Topic(stack, 'T');
    const metric = new cloudwatch.Metric({ namespace: 'N', metricName: 'M' });
    new cloudwatch.Alarm(stack, 'Linked', { metric, threshold: 1, evaluationPeriods: 1, alarmDescription: withRunbook(stack, 'x', 'api-5xx-errors') });
    new cloudwatch.CfnAlarm(stack, 'Bare', {
      comparisonOperator: 'GreaterThanThreshold',
      evaluationPeriods: 1,
      threshold: 0,
      namespace: 'N',
      metricName: 'M',
      statistic: 'Sum',
      period: 60,
      alarmDescription: 'no link',
    });
    Aspects.of(stack).add(new NotifyEveryAlarm([new SnsAction(topic)]));
    const template = Template.fromStack(stack);
    const ref = { Ref: stack.getLogicalId(topic.node.defaultChild as sns.CfnTopic) };
    for (const alarm of Object.values(template.findResources('AWS::CloudWatch::Alarm'))) {
      expect(alarm.Properties.AlarmActions).toEqual([ref]);
      expect(alarm.Properties.OKActions).toEqual([ref]);
    }
    Annotations.fromStack(stack).hasError('/S/Bare', Match.stringLikeRegexp('runbook link'));
    expect(Annotations.fromStack(stack).findError('/S/Linked/Resource', Match.anyValue())).toEqual([]);
  });
});

describe('API alarms', () => {
  it('counts 5xx other than 501 from the access log and alarms at >= 10 errors and >= 5 % of requests', () => {
    s.template.hasResourceProperties('AWS::Logs::MetricFilter', {
      LogGroupName: { Ref: s.logicalIdOf(s.stack.httpApi.accessLogs) },
      FilterPattern: Match.stringLikeRegexp('\\$\\.status = "5\\*".*\\$\\.status != "501"'),
      MetricTransformations: [Match.objectLike({ MetricNamespace: 'TransactionCoordination/Logs', MetricName: 'tcs-dev-Api5xxExcluding501', MetricValue: '1', DefaultValue: 0 })],
    });
    const [api5xx] = s.stack.apiAlarms.alarms;
    const props = alarmOf(api5xx);
    expect(props.Threshold).toBe(API_ALARM_THRESHOLDS.api5xxPercent);
    expect(props.Metrics.find((m: any) => m.Expression).Expression).toBe('IF(errors >= 10, 100 * errors / requests, 0)');
    expect(metricsOf(props).map((m: any) => m.MetricName)).toEqual(expect.arrayContaining(['tcs-dev-Api5xxExcluding501', 'Count']));
    // API Gateway's own 5xx metric (which counts 501) is no longer alarmed on.
    for (const [, alarm] of alarms) expect(metricsOf(alarm.Properties).map((m: any) => m.MetricName)).not.toContain('5xx');
  });

  it('alarms on p99 latency >= 3 s for 15 min, 4xx surges and 429 surges', () => {
    const byId = (id: string) => alarmOf(s.stack.apiAlarms.alarms.find((a) => a.node.id === id) as cloudwatch.Alarm);
    const latency = byId('ApiLatencyP99Alarm');
    expect(latency).toMatchObject({ Threshold: 3000, EvaluationPeriods: 3, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    expect(latency.Metrics).toContainEqual(expect.objectContaining({ MetricStat: expect.objectContaining({ Stat: 'p99', Metric: expect.objectContaining({ Namespace: 'AWS/ApiGateway', MetricName: 'Latency' }) }) }));
    const clientErrors = byId('Api4xxSurgeAlarm');
    expect(metricsOf(clientErrors).map((m: any) => m.MetricName)).toEqual(expect.arrayContaining(['4xx', 'Count']));
    expect(clientErrors).toMatchObject({ Threshold: API_ALARM_THRESHOLDS.clientErrorPercent, EvaluationPeriods: 3 });
    s.template.hasResourceProperties('AWS::Logs::MetricFilter', { FilterPattern: '{ $.status = "429" }' });
    const rateLimited = byId('Api429SurgeAlarm');
    expect(metricsOf(rateLimited)).toEqual([{ Namespace: 'TransactionCoordination/Logs', MetricName: 'tcs-dev-Api429' }]);
    expect(rateLimited).toMatchObject({ Threshold: API_ALARM_THRESHOLDS.rateLimited, EvaluationPeriods: 2 });
  });

  it('alarms on throttles of every API function (and the public-links and OAuth workers), at most 10 per alarm', () => {
    const throttleAlarms = s.stack.apiAlarms.alarms.filter((a) => a.node.id.startsWith('LambdaThrottlesAlarm')).map(alarmOf);
    const names = throttleAlarms.flatMap((p) => {
      const metrics = metricsOf(p);
      expect(metrics.length).toBeLessThanOrEqual(10);
      return metrics.map((m: any) => (expect(m.MetricName).toBe('Throttles'), m.Dimensions[0].Value.Ref));
    });
    const expected = [...s.stack.functions.values()].map((f) => s.logicalIdOf(f.fn)).concat(s.logicalIdOf(s.stack.messaging.workers['public-links'].fn), s.logicalIdOf(s.stack.oauth.fn.fn));
    expect(names.sort()).toEqual(expected.sort());
  });
});

describe('table alarms', () => {
  it('alarms on DynamoDB SystemErrors and ThrottledRequests of the table, per operation the service calls', () => {
    const table = { Ref: s.logicalIdOf(s.stack.table.table) };
    for (const [alarm, metricName] of [
      [s.stack.tableAlarms.alarms[0], 'SystemErrors'],
      [s.stack.tableAlarms.alarms[1], 'ThrottledRequests'],
    ] as const) {
      const metrics = metricsOf(alarmOf(alarm));
      expect(metrics.length).toBe(8);
      for (const m of metrics) {
        expect(m).toMatchObject({ Namespace: 'AWS/DynamoDB', MetricName: metricName });
        expect(m.Dimensions).toContainEqual({ Name: 'TableName', Value: table });
      }
      expect(metrics.map((m: any) => m.Dimensions.find((d: any) => d.Name === 'Operation').Value)).toContain('TransactWriteItems');
    }
  });
});

describe('queue age alarms', () => {
  it('alarms when the webhook delivery queue holds a message not yet retried twice for over an hour', () => {
    const seconds = deliveryQueueAgeAlarmSeconds(retryScheduleSeconds(undefined));
    expect(seconds).toBe(3600);
    s.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateAgeOfOldestMessage',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [s.logicalIdOf(s.stack.webhooks.queue), 'QueueName'] } }],
      Threshold: seconds,
      EvaluationPeriods: 3,
    });
  });

  it('alarms when a message of any dead-letter queue is 7 days old', () => {
    const queues = [s.stack.webhooks.deadLetterQueue, s.stack.webhooks.fanoutDeadLetterQueue, s.stack.messaging.failureQueue, s.stack.messaging.scheduler.deadLetterQueue, s.stack.messaging.sends.deadLetterQueue];
    const dlqAge = alarms.filter(([, a]) => a.Properties.Threshold === DLQ_AGE_ALARM_SECONDS).map(([, a]) => a.Properties);
    expect(dlqAge).toHaveLength(2);
    const watched = dlqAge.flatMap((p) => metricsOf(p).map((m: any) => (expect(m.MetricName).toBe('ApproximateAgeOfOldestMessage'), m.Dimensions[0].Value['Fn::GetAtt'][0])));
    expect(watched.sort()).toEqual(queues.map((q) => s.logicalIdOf(q)).sort());
  });
});

describe('extraction alarms', () => {
  it('alarms on executions aborted and throttled', () => {
    const sm = { Ref: s.logicalIdOf(s.stack.extraction.stateMachine) };
    for (const metric of ['ExecutionsAborted', 'ExecutionThrottled']) {
      s.template.hasResourceProperties('AWS::CloudWatch::Alarm', { Namespace: 'AWS/States', MetricName: metric, Dimensions: [{ Name: 'StateMachineArn', Value: sm }], Threshold: 0 });
    }
  });

  it('pages on system failures only: user document errors (encrypted PDF, not a PDF, …) are left out of the count', () => {
    expect(USER_DOCUMENT_ERRORS).toEqual(expect.arrayContaining(['encrypted_pdf', 'not_pdf']));
    expect(USER_DOCUMENT_ERRORS).not.toContain('internal_error');
    expect(USER_DOCUMENT_ERRORS).not.toContain('ocr_failed');
    const [[, filter]] = s.ofType('AWS::Logs::MetricFilter').filter(([, f]) => f.Properties.LogGroupName.Ref === s.logicalIdOf(s.stack.extraction.logGroup));
    const pattern: string = filter.Properties.FilterPattern;
    expect(pattern).toContain('$.type = "ExecutionFailed"');
    for (const code of USER_DOCUMENT_ERRORS) expect(pattern).toContain(`$.details.error != "${code}"`);
    expect(pattern).not.toContain('internal_error');
    const systemFailures = alarmOf(s.stack.extraction.alarms[0]);
    expect(systemFailures.Metrics).toEqual([
      expect.objectContaining({ MetricStat: { Metric: { Namespace: 'TransactionCoordination/Logs', MetricName: 'tcs-dev-ExtractionSystemFailures' }, Period: 900, Stat: 'Sum' } }),
    ]);
    expect(systemFailures).toMatchObject({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold' });
    // No alarm counts every failed execution any more.
    for (const [, alarm] of alarms) expect(alarm.Properties.MetricName).not.toBe('ExecutionsFailed');
  });
});
