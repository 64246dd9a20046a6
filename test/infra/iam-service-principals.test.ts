/**
 * What the stack asks of AWS services, judged offline from the synthesized template (test/support/iam/
 * service-principals.ts): SES, CloudWatch alarms, EventBridge Scheduler, S3 notifications, Step Functions, API
 * Gateway and SNS may each do what the stack wires them to do, through the bucket, topic, queue, key, function and
 * trust policies the template holds; so may Lambda when it polls an event source or delivers to a destination with a
 * function's role, and CodeDeploy when it shifts the live aliases. Synthesized with a mail domain, so the SES receipt rule exists (without one the
 * stack creates none).
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkServicePrincipals, summarizeDenials, type PrincipalCheck } from '#test/support/iam/service-principals';
import { DeployedTemplate, editedCopy } from '#test/support/iam/template';
import { synthesize, type Synthesized } from './synth.ts';

let s: Synthesized;
let t: DeployedTemplate;
let checks: PrincipalCheck[];
const copies: string[] = [];

beforeAll(async () => {
  s = await synthesize({ mailDomain: 'hillcountry.example', stackName: 'tcs-iam' });
  t = DeployedTemplate.load(s.outdir);
  checks = await checkServicePrincipals(t);
}, 300_000); // one synthesis: minutes on a loaded 2-core machine

afterAll(() => {
  s?.cleanup();
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

/** The checks of one kind (by the subject's first words). */
const of = (subject: string) => checks.filter((c) => c.subject.startsWith(subject));

/** Every check allowed; a failure lists the denials, one line per refused (principal, action, resource) with its reason. */
function expectAllAllowed(list: PrincipalCheck[]): void {
  const denied = summarizeDenials(list);
  expect(denied, denied.join('\n')).toEqual([]);
}

describe('service principals on the synthesized template', () => {
  it('SES may write received mail into its bucket, for this receipt rule only', () => {
    const ses = of('receipt rule');
    expect(ses.filter((c) => c.action === 's3:PutObject')).toHaveLength(1);
    expect(ses[0]!.context['aws:SourceArn']).toMatch(/:receipt-rule-set\/tcs-iam-inbound:receipt-rule\/store-replies$/);
    expectAllAllowed(ses);
  });

  it('SES may publish sending events to its encrypted topic', () => {
    const events = of('event destination');
    expect(new Set(events.map((c) => c.action))).toEqual(new Set(['sns:Publish', 'kms:GenerateDataKey', 'kms:Decrypt']));
    expectAllAllowed(events);
  });

  it('CloudWatch alarms may publish to the alarm topic and use its key', () => {
    const alarms = of('alarm');
    expect(alarms.filter((c) => c.action === 'sns:Publish').length).toBe(t.ofType('AWS::CloudWatch::Alarm').filter((a) => t.props(a).AlarmActions?.length).length);
    expect(alarms.some((c) => c.action === 'kms:GenerateDataKey')).toBe(true);
    expectAllAllowed(alarms);
  });

  it('EventBridge Scheduler may assume its role, which may invoke every target and write to the encrypted DLQ', () => {
    const scheduler = of('scheduler role');
    expect(new Set(scheduler.map((c) => c.action))).toEqual(new Set(['sts:AssumeRole', 'lambda:InvokeFunction', 'sqs:SendMessage', 'kms:GenerateDataKey', 'kms:Decrypt']));
    expect(scheduler.filter((c) => c.action === 'lambda:InvokeFunction').length).toBeGreaterThanOrEqual(3);
    expectAllAllowed(scheduler);
  });

  it('S3 may invoke the upload handler and the inbound-mail handler', () => {
    const notifications = of('bucket notifications');
    expect(notifications.filter((c) => c.action === 'lambda:InvokeFunction').length).toBeGreaterThanOrEqual(2);
    expectAllAllowed(notifications);
  });

  it('Step Functions may assume the extraction role, which may invoke every task function', () => {
    const sfn = of('state machine');
    expect(sfn.filter((c) => c.action === 'sts:AssumeRole')).toHaveLength(1);
    expect(sfn.filter((c) => c.action === 'lambda:InvokeFunction').length).toBeGreaterThanOrEqual(5);
    expectAllAllowed(sfn);
  });

  it('API Gateway may invoke the function of every HTTP API route, partner REST method and authorizer', () => {
    const api = [...of('route'), ...of('method'), ...of('authorizer')];
    expect(of('route').length).toBe(t.ofType('AWS::ApiGatewayV2::Route').length);
    expect(of('method').length).toBeGreaterThan(0);
    expect(of('authorizer').length).toBeGreaterThan(0);
    expectAllAllowed(api);
  });

  it('SNS may invoke the functions subscribed to the SES events and inbound SMS topics', () => {
    const subscriptions = of('subscription');
    expect(subscriptions.length).toBe(t.ofType('AWS::SNS::Subscription').length);
    expectAllAllowed(subscriptions);
  });
});

describe('CodeDeploy', () => {
  it('may assume its role, which may shift every live alias it deploys and read the rollback alarms', () => {
    const deploy = of('deployment group');
    const deployed = t.ofType('AWS::Lambda::Alias').filter((a) => (a.resource as { UpdatePolicy?: object }).UpdatePolicy);
    expect(deployed.length).toBeGreaterThan(0);
    expect(deploy.filter((c) => c.action === 'lambda:UpdateAlias')).toHaveLength(deployed.length);
    expect(deploy.some((c) => c.action === 'cloudwatch:DescribeAlarms')).toBe(true);
    expectAllAllowed(deploy);
  });
});

describe('Lambda acting with a function role', () => {
  it('may poll the webhook queue and the table stream, and hand failures to their DLQs', () => {
    const mappings = of('event source mapping');
    expect(mappings.map((c) => c.action)).toEqual(expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'dynamodb:GetRecords', 'sqs:SendMessage', 'kms:Decrypt']));
    expectAllAllowed(mappings);
  });

  it('may send failed asynchronous invocations to their failure destination', () => {
    const destinations = of('failure destination');
    expect(destinations.filter((c) => c.action === 'sqs:SendMessage').length).toBe(t.ofType('AWS::Lambda::EventInvokeConfig').length);
    expectAllAllowed(destinations);
  });
});

describe('the checks fail when a grant is missing', () => {
  it('denies SES once the bucket policy no longer names it, with the bucket policy as the reason', async () => {
    const sesStatement = (st: { Principal?: { Service?: unknown } }) => JSON.stringify(st.Principal ?? {}).includes('ses.amazonaws.com');
    let edited = 0;
    const dir = editedCopy(s.outdir, (files) => {
      for (const json of Object.values(files)) {
        for (const r of Object.values<any>(json?.Resources ?? {})) {
          if (r.Type !== 'AWS::S3::BucketPolicy' || !r.Properties.PolicyDocument.Statement.some(sesStatement)) continue;
          r.Properties.PolicyDocument.Statement = r.Properties.PolicyDocument.Statement.filter((st: any) => !sesStatement(st));
          edited++;
        }
      }
    });
    copies.push(dir);
    expect(edited).toBe(1);
    const after = (await checkServicePrincipals(DeployedTemplate.load(dir))).filter((c) => c.subject.startsWith('receipt rule') && c.action === 's3:PutObject');
    expect(after).toMatchObject([{ principal: 'ses.amazonaws.com', decision: 'ImplicitlyDenied' }]);
    expect(after[0]!.reason).toMatch(/the resource policy \(\w+Policy\w*\) does not allow ses\.amazonaws\.com/);
  });
});
