/**
 * The workspace lifecycle's infrastructure (lib/workspace-lifecycle.ts): the GSI3 index by organization, the two
 * workers' exact grants, the schedules' role and dead-letter queue, the export archives' lifecycle rule, and the
 * account API function's schedule and mail grants. Targeted assertions, no snapshots.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Match } from 'aws-cdk-lib/assertions';
import { synthesize, type Synthesized } from './synth.ts';

let s: Synthesized;
beforeAll(async () => {
  s = await synthesize();
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

  it('lets only the scheduler service of this account assume the schedules role, to invoke the two workers', () => {
    const l = s.stack.lifecycle;
    s.template.hasResourceProperties('AWS::IAM::Role', {
      AssumeRolePolicyDocument: {
        Statement: [Match.objectLike({ Principal: { Service: 'scheduler.amazonaws.com' }, Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } } })],
      },
    });
    const roleId = s.logicalIdOf(l.schedulerRole);
    const statements = s
      .ofType('AWS::IAM::Policy')
      .filter(([, p]) => p.Properties.Roles.some((r: any) => r.Ref === roleId))
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as any[]);
    const invoke = statements.filter((st) => [st.Action].flat().includes('lambda:InvokeFunction'));
    expect(invoke).toHaveLength(1);
    const targets = JSON.stringify(invoke[0].Resource);
    expect(targets).toContain(s.logicalIdOf(l.purge.fn));
    expect(targets).toContain(s.logicalIdOf(l.export.fn));
    expect(targets).not.toContain('"*"');
    expect(statements.flatMap((st) => [st.Action].flat()).every((a: string) => a === 'lambda:InvokeFunction' || a.startsWith('sqs:'))).toBe(true);
    s.template.hasResourceProperties('AWS::Scheduler::ScheduleGroup', { Name: Match.anyValue() });
  });

  it('gives the purge deletes but no creates, and the export reads and one put prefix but no deletes', () => {
    const purge = actionsOf(s.logicalIdOf(s.stack.lifecycle.purge.fn));
    expect(purge).toEqual(expect.arrayContaining(['dynamodb:BatchWriteItem', 'dynamodb:DeleteItem', 's3:DeleteObject', 's3:ListBucket', 'scheduler:DeleteSchedule']));
    expect(purge).not.toContain('dynamodb:PutItem');
    expect(purge).not.toContain('s3:PutObject');
    expect(purge).not.toContain('dynamodb:Scan');
    const exp = actionsOf(s.logicalIdOf(s.stack.lifecycle.export.fn));
    expect(exp).toEqual(expect.arrayContaining(['dynamodb:BatchGetItem', 's3:GetObject', 's3:PutObject', 'ses:SendEmail']));
    expect(exp.filter((a) => /Delete|BatchWrite/.test(a))).toEqual([]);
    s.template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Action: 's3:PutObject', Resource: { 'Fn::Join': ['', [Match.anyValue(), '/exports/*']] } })]) },
    });
  });

  it('grants the account API function its capabilities: schedules of the group, pass the role, send mail', () => {
    const account = s.logicalIdOf(s.stack.functions.get('account')!.fn);
    const actions = actionsOf(account);
    expect(actions).toEqual(expect.arrayContaining(['scheduler:CreateSchedule', 'scheduler:DeleteSchedule', 'iam:PassRole', 'ses:SendEmail']));
    s.template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ SCHEDULE_TARGET_WORKSPACE_PURGE_ARN: Match.anyValue(), SCHEDULER_ROLE_ARN: Match.anyValue(), SCHEDULER_DLQ_ARN: Match.anyValue() }) },
    });
  });
});
