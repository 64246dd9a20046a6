/**
 * The workspace lifecycle's infrastructure (lib/workspace-lifecycle.ts): the GSI3 index by organization, the two
 * workers' exact grants, their registration with the messaging scheduler (one group, role and dead-letter queue for
 * the service), the export archives' lifecycle rule, and the account API function's schedule grants (no mail: its notice is queued for the send worker). Targeted assertions, no snapshots.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Match } from 'aws-cdk-lib/assertions';
import { synthesizeDefault, type Synthesized } from './synth.ts';

let s: Synthesized;
beforeAll(async () => {
  s = await synthesizeDefault();
}, 180_000);
afterAll(() => s?.cleanup());

/** Every action of every statement attached to the role of the function `fnLogicalId`. */
function actionsOf(fnLogicalId: string): string[] {
  const fn = s.resources[fnLogicalId];
  const roleId = fn.Properties.Role['Fn::GetAtt'][0];
  return s
    .ofType('AWS::IAM::Policy')
    .filter(([, p]) => p.Properties.Roles.some((r: any) => r.Ref === roleId))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement.flatMap((st: any) => [st.Action].flat()));
}

describe('workspace lifecycle infrastructure', () => {
  it('synthesizes with cdk-nag clean', () => {
    expect(s.synthError).toBeUndefined();
  });

  it('indexes every item by orgId, keys only (GSI3)', () => {
    s.template.hasResourceProperties('AWS::DynamoDB::Table', {
      GlobalSecondaryIndexes: Match.arrayWith([
        { IndexName: 'GSI3', KeySchema: [{ AttributeName: 'orgId', KeyType: 'HASH' }, { AttributeName: 'PK', KeyType: 'RANGE' }], Projection: { ProjectionType: 'KEYS_ONLY' } },
      ]),
    });
  });

  it('expires export archives under exports/ by a bucket lifecycle rule', () => {
    s.template.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: { Rules: Match.arrayWith([Match.objectLike({ Id: 'expire-workspace-exports', Prefix: 'exports/', ExpirationInDays: 2, Status: 'Enabled' })]) },
    });
  });

  it('uses the messaging scheduler only: one schedule group, one role trusted by EventBridge Scheduler', () => {
    s.template.resourceCountIs('AWS::Scheduler::ScheduleGroup', 1);
    const trusted = s
      .ofType('AWS::IAM::Role')
      .filter(([, r]) => JSON.stringify(r.Properties.AssumeRolePolicyDocument).includes('scheduler.amazonaws.com'))
      .map(([id]) => id);
    expect(trusted).toEqual([s.logicalIdOf(s.stack.messaging.scheduler.role)]);
  });

  it('lets the scheduler role invoke exactly scheduled-send and the two lifecycle workers', () => {
    const { scheduler, workers } = s.stack.messaging;
    const statements = s
      .ofType('AWS::IAM::Policy')
      .filter(([, p]) => p.Properties.Roles.some((r: any) => r.Ref === s.logicalIdOf(scheduler.role)))
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as any[]);
    const invoke = statements.filter((st) => [st.Action].flat().includes('lambda:InvokeFunction'));
    expect(invoke).toHaveLength(1);
    // Schedules target each worker's live alias (lib/safe-deployments.ts).
    const key = (a: unknown) => JSON.stringify(a);
    expect([invoke[0].Resource].flat().map(key).sort()).toEqual([workers['scheduled-send'], s.stack.lifecycle.purge, s.stack.lifecycle.export].map((fn) => key(s.liveOf(fn))).sort());
    // Besides invoking: write the dead-letter queue, which is encrypted with the data key.
    expect(statements.flatMap((st) => [st.Action].flat()).sort()).toEqual(['kms:Decrypt', 'kms:DescribeKey', 'kms:Encrypt', 'kms:GenerateDataKey', 'lambda:InvokeFunction', 'sqs:SendMessage']);
  });

  it('sends the workers\' failed asynchronous invocations, after two retries, to the messaging failure queue', () => {
    for (const fn of [s.stack.lifecycle.purge, s.stack.lifecycle.export]) {
      s.template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
        FunctionName: { Ref: s.logicalIdOf(fn.fn) },
        MaximumRetryAttempts: 2,
        DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [s.logicalIdOf(s.stack.messaging.failureQueue), 'Arn'] } } },
      });
    }
  });

  it('gives the purge deletes but no creates, and the export reads and one put prefix (multipart, aborts included) but no deletes', () => {
    const purge = actionsOf(s.logicalIdOf(s.stack.lifecycle.purge.fn));
    expect(purge).toEqual(expect.arrayContaining(['dynamodb:BatchWriteItem', 'dynamodb:DeleteItem', 's3:DeleteObject', 's3:ListBucket', 'scheduler:DeleteSchedule']));
    expect(purge).not.toContain('dynamodb:PutItem');
    expect(purge).not.toContain('s3:PutObject');
    expect(purge).not.toContain('dynamodb:Scan');
    const exp = actionsOf(s.logicalIdOf(s.stack.lifecycle.export.fn));
    expect(exp).toEqual(expect.arrayContaining(['dynamodb:BatchGetItem', 's3:GetObject', 's3:PutObject', 'ses:SendEmail']));
    expect(exp.filter((a) => /Delete|BatchWrite/.test(a))).toEqual([]);
    s.template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Action: ['s3:AbortMultipartUpload', 's3:PutObject'], Resource: { 'Fn::Join': ['', [Match.anyValue(), '/exports/*']] } })]) },
    });
  });

  it('the account API function requests schedules through the outbox (no scheduler grant, no mail); the outbox relay gets the one group, role and DLQ, both targets', () => {
    const account = s.stack.functions.get('account')!;
    const actions = actionsOf(s.logicalIdOf(account.fn));
    expect(actions.filter((a) => a.startsWith('scheduler:') || a.startsWith('iam:') || a.startsWith('ses:') || a.startsWith('secretsmanager:'))).toEqual([]);
    expect(s.resources[s.logicalIdOf(account.fn)].Properties.Environment.Variables).toMatchObject({ MAIL_FROM_ADDRESS: expect.any(String), PUBLIC_BASE_URL: expect.anything() });
    expect(Object.keys(s.resources[s.logicalIdOf(account.fn)].Properties.Environment.Variables)).not.toContain('SCHEDULE_GROUP');
    const relay = s.stack.webhooks.fanout;
    expect(actionsOf(s.logicalIdOf(relay.fn))).toEqual(expect.arrayContaining(['scheduler:CreateSchedule', 'scheduler:DeleteSchedule', 'iam:PassRole']));
    const { scheduler } = s.stack.messaging;
    const getAtt = (c: { node: { defaultChild?: unknown } }) => ({ 'Fn::GetAtt': [s.logicalIdOf(c), 'Arn'] });
    expect(s.resources[s.logicalIdOf(relay.fn)].Properties.Environment.Variables).toMatchObject({
      SCHEDULE_GROUP: s.stack.resolve(scheduler.group.scheduleGroupName),
      SCHEDULER_ROLE_ARN: getAtt(scheduler.role),
      SCHEDULER_DLQ_ARN: getAtt(scheduler.deadLetterQueue),
      SCHEDULE_TARGET_SCHEDULED_SEND_ARN: s.liveOf(s.stack.messaging.workers['scheduled-send']),
      SCHEDULE_TARGET_WORKSPACE_PURGE_ARN: s.liveOf(s.stack.lifecycle.purge),
      SCHEDULE_TARGET_WORKSPACE_EXPORT_ARN: s.liveOf(s.stack.lifecycle.export),
    });
  });

  it('lets the purge delete (not create) schedules of the messaging group, with its SCHEDULE_GROUP', () => {
    const { purge } = s.stack.lifecycle;
    const scheduler = s.stack.messaging.scheduler;
    expect(actionsOf(s.logicalIdOf(purge.fn)).filter((a) => a.startsWith('scheduler:') || a.startsWith('iam:'))).toEqual(['scheduler:DeleteSchedule']);
    expect(s.resources[s.logicalIdOf(purge.fn)].Properties.Environment.Variables.SCHEDULE_GROUP).toEqual(s.stack.resolve(scheduler.group.scheduleGroupName));
  });

  it('sizes the export worker for a streamed archive: 512 MB of memory, 2 GB of /tmp for the staged records', () => {
    const fn = s.resources[s.logicalIdOf(s.stack.lifecycle.export.fn)];
    expect(fn.Properties).toMatchObject({ MemorySize: 512, EphemeralStorage: { Size: 2048 } });
  });

  it('lets the export send as the service only: no members\' SMTP secrets', () => {
    const exp = actionsOf(s.logicalIdOf(s.stack.lifecycle.export.fn));
    expect(exp).toEqual(expect.arrayContaining(['ses:SendEmail', 'ses:SendRawEmail']));
    expect(exp.filter((a) => a.startsWith('secretsmanager:'))).toEqual([]);
  });
});
