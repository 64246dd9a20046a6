/**
 * CDK assertions on the webhook pipeline (lib/webhook-pipeline.ts) inside the synthesized stack: the stream
 * event source (outbox-INSERT filter, partial batch failures, on-failure DLQ), the delivery queue's redrive
 * policy (tied to the retry schedule), the SQS event source and reserved concurrency, least-privilege grants
 * of both workers, and the alarms. Targeted `hasResourceProperties` / property checks, no snapshots.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Match } from 'aws-cdk-lib/assertions';
import { maxAttempts } from '#events/retry-schedule';
import type { ServiceFunction } from '#lib/service-function';
import { DEFAULT_WEBHOOK_CONCURRENCY, WORKER_TIMEOUT_SECONDS } from '#lib/webhook-pipeline';
import { synthesize, synthesizeDefault, type Synthesized } from './synth.ts';

type Statement = { Effect: string; Action: string | string[]; Resource: unknown };

let s: Synthesized;

beforeAll(async () => {
  s = await synthesizeDefault();
}, 300_000); // one synthesis: minutes on a loaded 2-core machine

afterAll(() => {
  s?.cleanup();
});

const ids = () => {
  const w = s.stack.webhooks;
  return {
    table: s.logicalIdOf(s.stack.table.table),
    queue: s.logicalIdOf(w.queue),
    dlq: s.logicalIdOf(w.deadLetterQueue),
    fanoutDlq: s.logicalIdOf(w.fanoutDeadLetterQueue),
    fanout: s.logicalIdOf(w.fanout.fn),
    delivery: s.logicalIdOf(w.delivery.fn),
    // The event sources invoke the live aliases (lib/safe-deployments.ts); an alias's Ref is its ARN.
    fanoutLive: s.logicalIdOf(w.fanout.alias!),
    deliveryLive: s.logicalIdOf(w.delivery.alias!),
  };
};
const arnOf = (logicalId: string) => ({ 'Fn::GetAtt': [logicalId, 'Arn'] });

/** Every IAM statement attached to `fn`'s role. */
function statementsOf(synth: Synthesized, fn: ServiceFunction): Statement[] {
  const role = synth.resources[synth.logicalIdOf(fn.fn)].Properties.Role['Fn::GetAtt'][0];
  return synth
    .ofType('AWS::IAM::Policy')
    .map(([, r]) => r.Properties)
    .filter((p) => p.Roles.some((r: { Ref: string }) => r.Ref === role))
    .flatMap((p) => p.PolicyDocument.Statement as Statement[]);
}
const actionsOf = (st: Statement) => [st.Action].flat();
/** DynamoDB actions granted on the table itself (not its stream). */
function tableActions(statements: Statement[], tableId: string): string[] {
  return statements
    .filter((st) => JSON.stringify(st.Resource).includes(`["${tableId}","Arn"]`))
    .flatMap(actionsOf)
    .filter((a) => a.startsWith('dynamodb:'))
    .sort();
}

/** How CDK names an alias in an event-source mapping: `<function name>:live`, from the alias's ARN. */
const qualifiedName = (aliasLogicalId: string) => ({ 'Fn::Join': ['', [{ 'Fn::Select': [6, { 'Fn::Split': [':', { Ref: aliasLogicalId }] }] }, ':live']] });

function mappingOf(synth: Synthesized, fnLogicalId: string) {
  const found = synth.ofType('AWS::Lambda::EventSourceMapping').filter(([, r]) => JSON.stringify(r.Properties.FunctionName) === JSON.stringify(qualifiedName(fnLogicalId)));
  expect(found, fnLogicalId).toHaveLength(1);
  return found[0][1].Properties;
}

describe('fan-out (DynamoDB stream → delivery queue)', () => {
  it('is invoked only for OutboxEvent INSERTs, reports partial failures and sends exhausted batches to its DLQ', () => {
    const { table, fanoutLive, fanoutDlq } = ids();
    s.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: qualifiedName(fanoutLive),
      EventSourceArn: { 'Fn::GetAtt': [table, 'StreamArn'] },
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: 100,
      BisectBatchOnFunctionError: false,
      MaximumRetryAttempts: 10,
      MaximumRecordAgeInSeconds: 86_400,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      DestinationConfig: { OnFailure: { Destination: arnOf(fanoutDlq) } },
    });
    const filters = mappingOf(s, fanoutLive).FilterCriteria.Filters as { Pattern: string }[];
    expect(filters).toHaveLength(1);
    expect(JSON.parse(filters[0].Pattern)).toEqual({
      eventName: ['INSERT'],
      dynamodb: { NewImage: { entity: { S: ['OutboxEvent'] } } },
    });
  });

  it('runs 60 s with the queue URL and the table name', () => {
    const { fanout, queue, table } = ids();
    expect(s.resources[fanout].Properties).toMatchObject({
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      Timeout: WORKER_TIMEOUT_SECONDS,
      Environment: { Variables: { WEBHOOK_QUEUE_URL: { Ref: queue }, TABLE_NAME: { Ref: table } } },
    });
  });

  it('may GetItem (pending redeliveries), Query, PutItem and UpdateItem (the schedule relay marks an unschedulable record) on the table only (no DeleteItem, no GSIs), send to the queue and read the stream', () => {
    const { table, queue } = ids();
    const statements = statementsOf(s, s.stack.webhooks.fanout);
    expect(tableActions(statements, table)).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:UpdateItem']);
    const all = statements.flatMap(actionsOf);
    for (const forbidden of ['dynamodb:DeleteItem', 'dynamodb:TransactWriteItems', 'dynamodb:*', 'dynamodb:Scan']) expect(all).not.toContain(forbidden);
    expect(JSON.stringify(statements)).not.toContain('/index/*');
    const send = statements.filter((st) => actionsOf(st).includes('sqs:SendMessage'));
    expect(send.flatMap((st) => [st.Resource].flat())).toContainEqual(arnOf(queue));
    const stream = statements.filter((st) => actionsOf(st).includes('dynamodb:GetRecords'));
    expect(stream).toHaveLength(1);
    expect(stream[0].Resource).toEqual({ 'Fn::GetAtt': [table, 'StreamArn'] });
  });
});

describe('delivery queue', () => {
  it('dead-letters a message after maxAttempts() receives, with a visibility timeout of 6 × the function timeout', () => {
    const { dlq } = ids();
    s.template.hasResourceProperties('AWS::SQS::Queue', {
      RedrivePolicy: { deadLetterTargetArn: arnOf(dlq), maxReceiveCount: maxAttempts() },
      VisibilityTimeout: 6 * WORKER_TIMEOUT_SECONDS,
      KmsMasterKeyId: arnOf(s.logicalIdOf(s.stack.dataKey.key)),
    });
    expect(maxAttempts()).toBe(7);
  });

  it('keeps dead letters 14 days; every queue is encrypted with the data key and refuses non-TLS requests', () => {
    const { queue, dlq, fanoutDlq } = ids();
    for (const id of [dlq, fanoutDlq]) {
      expect(s.resources[id].Properties).toMatchObject({ MessageRetentionPeriod: 14 * 86_400, KmsMasterKeyId: arnOf(s.logicalIdOf(s.stack.dataKey.key)) });
      expect(s.resources[id].Properties.RedrivePolicy, 'a DLQ has no DLQ of its own').toBeUndefined();
    }
    const deniesPlainHttp = (id: string) =>
      s.ofType('AWS::SQS::QueuePolicy').some(
        ([, p]) =>
          p.Properties.Queues.some((q: { Ref: string }) => q.Ref === id) &&
          (p.Properties.PolicyDocument.Statement as { Effect: string; Condition?: unknown }[]).some(
            (st) => st.Effect === 'Deny' && JSON.stringify(st.Condition) === '{"Bool":{"aws:SecureTransport":"false"}}',
          ),
      );
    for (const id of [queue, dlq, fanoutDlq]) expect(deniesPlainHttp(id), id).toBe(true);
    // The pipeline's own queues (the messaging pipeline's are asserted in messaging-pipeline.test.ts).
    expect(s.ofType('AWS::SQS::Queue').filter(([id]) => id.startsWith('Webhooks'))).toHaveLength(3);
  });
});

describe('delivery (queue → HTTPS)', () => {
  it('consumes the queue in batches of up to 10 without a batching window, with partial batch failures, at most 10 at once, with no reservation by default', () => {
    const { delivery, deliveryLive, queue } = ids();
    s.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: qualifiedName(deliveryLive),
      EventSourceArn: arnOf(queue),
      BatchSize: 10,
      // A window would delay every first attempt at low traffic (commit → first attempt p50 ≤ 100 ms, issue 24).
      MaximumBatchingWindowInSeconds: Match.absent(),
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    // A reservation would fail to deploy on a new account (quota 10, 10 must stay unreserved).
    expect(s.resources[delivery].Properties).not.toHaveProperty('ReservedConcurrentExecutions');
    expect(mappingOf(s, deliveryLive).ScalingConfig.MaximumConcurrency).toBe(DEFAULT_WEBHOOK_CONCURRENCY);
  });

  it('runs 60 s with 256 MB, the queue URL, and no schedule/breaker override by default', () => {
    const { delivery, queue } = ids();
    const props = s.resources[delivery].Properties;
    expect(props).toMatchObject({ Timeout: WORKER_TIMEOUT_SECONDS, MemorySize: 256, Environment: { Variables: { WEBHOOK_QUEUE_URL: { Ref: queue } } } });
    expect(props.Environment.Variables.WEBHOOK_RETRY_SCHEDULE).toBeUndefined();
    expect(props.Environment.Variables.WEBHOOK_BREAKER_THRESHOLD).toBeUndefined();
  });

  it('may change message visibility on the queue; on the table only GetItem/PutItem/UpdateItem and BatchWriteItem for attempt items (no Query, no DeleteItem)', () => {
    const { table, queue } = ids();
    const statements = statementsOf(s, s.stack.webhooks.delivery);
    const visibility = statements.filter((st) => st.Effect === 'Allow' && actionsOf(st).includes('sqs:ChangeMessageVisibility'));
    expect(visibility.flatMap((st) => [st.Resource].flat())).toEqual([arnOf(queue)]);
    expect(tableActions(statements, table)).toEqual(['dynamodb:BatchWriteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']);
    const all = statements.flatMap(actionsOf);
    for (const forbidden of ['dynamodb:Query', 'dynamodb:DeleteItem', 'dynamodb:*', 'dynamodb:Scan']) expect(all).not.toContain(forbidden);
    expect(all.some((a) => a.startsWith('dynamodb:') && /Stream|GetRecords|ShardIterator/.test(a))).toBe(false);
  });
});

describe('alarms and dashboard', () => {
  it('alarms when either DLQ holds a message (ApproximateNumberOfMessagesVisible, 5-minute maximum > 0)', () => {
    const { dlq, fanoutDlq } = ids();
    for (const id of [dlq, fanoutDlq]) {
      s.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Namespace: 'AWS/SQS',
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [id, 'QueueName'] } }],
        Statistic: 'Maximum',
        Period: 300,
        Threshold: 0,
        ComparisonOperator: 'GreaterThanThreshold',
      });
    }
  });

  it('alarms when fan-out is more than 5 minutes behind the stream', () => {
    s.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/Lambda',
      MetricName: 'IteratorAge',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: ids().fanout } }],
      Statistic: 'Maximum',
      Threshold: 300_000,
      ComparisonOperator: 'GreaterThanThreshold',
    });
  });

  it('alarms on >= 3 errors of the fan-out and delivery functions together in 15 minutes', () => {
    const [[, alarm]] = s.ofType('AWS::CloudWatch::Alarm').filter(([, a]) => a.Properties.Metrics?.some((x: { Label?: string }) => x.Label === 'webhook worker errors'));
    expect(alarm.Properties.Threshold).toBe(3);
    const fns = alarm.Properties.Metrics.filter((x: { MetricStat?: unknown }) => x.MetricStat).map((x: any) => x.MetricStat.Metric.Dimensions[0].Value.Ref);
    expect(fns.sort()).toEqual([ids().delivery, ids().fanout].sort());
  });

  it('lists the pipeline alarms with the dashboard alarms (shown in its status widget) and charts the queues', () => {
    for (const alarm of s.stack.webhooks.alarms) expect(s.stack.dashboard.alarms).toContain(alarm);
    const [[, dashboard]] = s.ofType('AWS::CloudWatch::Dashboard');
    const body = JSON.stringify(dashboard.Properties.DashboardBody);
    for (const metric of ['ApproximateAgeOfOldestMessage', 'ApproximateNumberOfMessagesNotVisible', 'IteratorAge', 'Duration']) expect(body).toContain(metric);
    const { queue, dlq, fanoutDlq } = ids();
    for (const id of [queue, dlq, fanoutDlq]) expect(body).toContain(`"${id}","QueueName"`);
  });
});

describe('context knobs', () => {
  let custom: Synthesized;
  beforeAll(async () => {
    custom = await synthesize({ webhookConcurrency: '4', webhookReservedConcurrency: '6', webhookRetrySchedule: '1,1,2', webhookBreakerThreshold: '5' });
  }, 120_000);
  afterAll(() => custom?.cleanup());

  it('sets the concurrency, the opt-in reservation, the retry schedule (and with it maxReceiveCount) and the breaker threshold', () => {
    const delivery = custom.resources[custom.logicalIdOf(custom.stack.webhooks.delivery.fn)];
    expect(delivery.Properties.ReservedConcurrentExecutions).toBe(6);
    expect(delivery.Properties.Environment.Variables).toMatchObject({ WEBHOOK_RETRY_SCHEDULE: '1,1,2', WEBHOOK_BREAKER_THRESHOLD: '5' });
    expect(mappingOf(custom, custom.logicalIdOf(custom.stack.webhooks.delivery.alias!)).ScalingConfig.MaximumConcurrency).toBe(4);
    custom.template.hasResourceProperties('AWS::SQS::Queue', {
      RedrivePolicy: { deadLetterTargetArn: Match.anyValue(), maxReceiveCount: maxAttempts([1, 1, 2]) },
    });
    expect(maxAttempts([1, 1, 2])).toBe(4);
  });

  it('pushes device notifications through an SNS platform application from context: env, CreatePlatformEndpoint on it, Publish on its endpoints', async () => {
    const app = 'arn:aws:sns:us-east-1:123456789012:app/GCM/tcs-agents';
    const pushed = await synthesize({ pushPlatformApplicationArn: app });
    try {
      const fanoutId = pushed.logicalIdOf(pushed.stack.webhooks.fanout.fn);
      expect(pushed.resources[fanoutId].Properties.Environment.Variables.PUSH_PLATFORM_APPLICATION_ARN).toBe(app);
      const role = pushed.resources[fanoutId].Properties.Role['Fn::GetAtt'][0];
      const statements = pushed.ofType('AWS::IAM::Policy')
        .filter(([, p]) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === role))
        .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[])
        .filter((st) => [st.Action].flat().some((a) => a.startsWith('sns:')));
      expect(statements).toEqual([
        expect.objectContaining({ Action: 'sns:CreatePlatformEndpoint', Resource: app }),
        expect.objectContaining({ Action: 'sns:Publish', Resource: 'arn:aws:sns:us-east-1:123456789012:endpoint/GCM/tcs-agents/*' }),
      ]);
      expect(pushed.synthError).toBeUndefined();
      // Without the context, push is off: no variable, no SNS grant.
      expect(s.resources[s.logicalIdOf(s.stack.webhooks.fanout.fn)].Properties.Environment.Variables).not.toHaveProperty('PUSH_PLATFORM_APPLICATION_ARN');
    } finally {
      pushed.cleanup();
    }
    await expect(synthesize({ pushPlatformApplicationArn: 'arn:aws:sns:us-east-1:123456789012:my-topic' })).rejects.toThrow(/not an SNS platform application ARN/);
  }, 120_000);

  it('refuses a concurrency below 2, a reservation below the concurrency and an invalid schedule at synth', async () => {
    await expect(synthesize({ webhookConcurrency: 1 })).rejects.toThrow(/concurrency must be an integer from 2 to 1000/);
    await expect(synthesize({ webhookReservedConcurrency: 5 })).rejects.toThrow(/reserved concurrency must be an integer from the delivery concurrency \(10\)/);
    await expect(synthesize({ webhookRetrySchedule: '60,abc' })).rejects.toThrow(/WEBHOOK_RETRY_SCHEDULE is invalid/);
  });
});
