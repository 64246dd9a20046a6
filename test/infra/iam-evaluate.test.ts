/**
 * The offline IAM evaluation (test/support/iam/evaluate.ts) on the default synthesized assembly: calls the template
 * grants are allowed, and the evaluator fails when it should — a grant removed from a copy of the template, a
 * resource outside the grant, a KMS key policy without the account-root delegation, an explicit deny, a missing key
 * grant behind an encrypted queue.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateCalls, formatDenials, unusedGrants, type AwsCall } from '#test/support/iam/evaluate';
import { functionPolicies, statementsOf } from '#test/support/iam/policies';
import { DeployedTemplate, editedCopy } from '#test/support/iam/template';
import { orgObjectPrefixes } from '#ports/blob-store';
import { synthesizeDefault, type Synthesized } from './synth.ts';

let s: Synthesized;
let t: DeployedTemplate;
const copies: string[] = [];

/** The one resource of `type` whose logical id starts with `prefix`. */
function idOf(type: string, prefix: string): string {
  const ids = t.ofType(type).map((l) => l.logicalId).filter((id) => id.startsWith(prefix));
  if (ids.length !== 1) throw new Error(`expected one ${type} ${prefix}*, found ${ids.join(', ') || 'none'}`);
  return ids[0]!;
}

/** The assembly after `edit` changed one resource's properties (found in whichever template holds it). */
function edited(logicalId: string, edit: (props: Record<string, any>) => void): DeployedTemplate {
  const dir = editedCopy(s.outdir, (files) => {
    const holders = Object.values(files).filter((json) => json?.Resources?.[logicalId]);
    if (holders.length !== 1) throw new Error(`${logicalId} is in ${holders.length} templates`);
    edit(holders[0].Resources[logicalId].Properties);
  });
  copies.push(dir);
  return DeployedTemplate.load(dir);
}

let fn: string;
let table: string;
let dataKey: string;

beforeAll(async () => {
  s = await synthesizeDefault();
  t = DeployedTemplate.load(s.outdir);
  fn = idOf('AWS::Lambda::Function', 'TransactionsApiFunction');
  table = t.getAtt(idOf('AWS::DynamoDB::Table', 'DataTable'), 'Arn');
  dataKey = t.getAtt(idOf('AWS::KMS::Key', 'DataKey'), 'Arn');
}, 300_000);

afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

describe('evaluateCalls on the synthesized template', () => {
  it('allows what the transactions API function is granted: items, a GSI query, the data key; passing the scheduler role only to the outbox relay', async () => {
    const passRole = (functionLogicalId: string): AwsCall => ({
      functionLogicalId,
      action: 'iam:PassRole',
      resource: t.getAtt(idOf('AWS::IAM::Role', 'MessagingSchedulerRole')),
      context: { 'iam:PassedToService': 'scheduler.amazonaws.com' },
    });
    const relay = idOf('AWS::Lambda::Function', 'WebhooksFanout');
    const calls: AwsCall[] = [
      { functionLogicalId: fn, action: 'dynamodb:PutItem', resource: table },
      { functionLogicalId: fn, action: 'dynamodb:PutItem', resource: table },
      { functionLogicalId: fn, action: 'dynamodb:Query', resource: `${table}/index/GSI1` },
      { functionLogicalId: fn, action: 'kms:Decrypt', resource: dataKey },
      passRole(relay),
    ];
    const { denied, allowed } = await evaluateCalls(t, calls);
    expect(denied, formatDenials(denied)).toEqual([]);
    expect(allowed.map((a) => [a.action, a.count])).toEqual([['dynamodb:PutItem', 2], ['dynamodb:Query', 1], ['kms:Decrypt', 1], ['iam:PassRole', 1]]);
    // Schedules are requested through the outbox (issue 24): the API function may not pass the role.
    expect((await evaluateCalls(t, [passRole(fn)])).denied).toMatchObject([{ functionLogicalId: fn, action: 'iam:PassRole' }]);
    // kms: both the role's policy and the key policy's account-root statement take part.
    expect(allowed.find((a) => a.action === 'kms:Decrypt')!.reason).toMatch(/identity policy .*; resource policy DataKey/);
  });

  it('resolves a nested stack function whose policy names the parent table through a stack parameter', async () => {
    const nested = t.assembly.nested.flatMap((n) => n.ofType('AWS::Lambda::Function'));
    expect(nested.length).toBeGreaterThan(0);
    const calls = nested.map((id) => ({ functionLogicalId: id, action: 'dynamodb:GetItem', resource: table }));
    const { denied } = await evaluateCalls(t, calls);
    expect(denied, formatDenials(denied)).toEqual([]);
  });

  it('denies a call once its grant is removed from the role policy, naming function, action and resource', async () => {
    const policy = functionPolicies(t, fn).identity.find((p) => statementsOf(p.document).some((st) => [st.Action].flat().includes('dynamodb:PutItem')))!;
    const copy = edited(policy.source, (props) => {
      for (const st of props.PolicyDocument.Statement) if (Array.isArray(st.Action)) st.Action = st.Action.filter((a: string) => a !== 'dynamodb:PutItem');
    });
    const calls: AwsCall[] = [
      { functionLogicalId: fn, action: 'dynamodb:PutItem', resource: table },
      { functionLogicalId: fn, action: 'dynamodb:GetItem', resource: table },
    ];
    const before = await evaluateCalls(t, calls);
    const after = await evaluateCalls(copy, calls);
    expect(before.denied).toEqual([]);
    expect(after.denied).toMatchObject([{ functionLogicalId: fn, action: 'dynamodb:PutItem', resource: table, decision: 'ImplicitlyDenied' }]);
    expect(after.denied[0]!.reason).toContain(`${fn} (role ${functionPolicies(t, fn).roleName}) may not dynamodb:PutItem on ${table}`);
    expect(after.allowed.map((a) => a.action)).toEqual(['dynamodb:GetItem']);
  });

  it('denies another table, another bucket and a key prefix outside the grant', async () => {
    const messaging = idOf('AWS::Lambda::Function', 'DocumentsApiFunction');
    const documents = t.getAtt(idOf('AWS::S3::Bucket', 'ExtractionDocuments'), 'Arn');
    const calls: AwsCall[] = [
      { functionLogicalId: fn, action: 'dynamodb:PutItem', resource: `arn:aws:dynamodb:${t.region}:${t.account}:table/another-table` },
      { functionLogicalId: messaging, action: 's3:GetObject', resource: `${documents}/org/o1/doc.pdf` },
      { functionLogicalId: messaging, action: 's3:GetObject', resource: `arn:aws:s3:::another-bucket/org/o1/doc.pdf` },
      { functionLogicalId: messaging, action: 's3:GetObject', resource: `${documents}/exports/o1.zip` },
    ];
    const { denied, allowed } = await evaluateCalls(t, calls, { impliedKmsCalls: false });
    expect(allowed.map((a) => a.resource)).toEqual([`${documents}/org/o1/doc.pdf`]);
    expect(denied.map((d) => [d.functionLogicalId, d.resource, d.decision])).toEqual([
      [fn, `arn:aws:dynamodb:${t.region}:${t.account}:table/another-table`, 'ImplicitlyDenied'],
      [messaging, 'arn:aws:s3:::another-bucket/org/o1/doc.pdf', 'ImplicitlyDenied'],
      [messaging, `${documents}/exports/o1.zip`, 'ImplicitlyDenied'],
    ]);
  });

  it('lets only the OAuth function write the signing key partition (OAUTHKEY#); API groups still read it and write elsewhere', async () => {
    const oauth = idOf('AWS::Lambda::Function', 'OAuthServerFunction');
    const leading = (key: string) => ({ 'dynamodb:LeadingKeys': [key] });
    const calls: AwsCall[] = [
      { functionLogicalId: fn, action: 'dynamodb:PutItem', resource: table, context: leading('OAUTHKEY#k1') },
      { functionLogicalId: fn, action: 'dynamodb:BatchWriteItem', resource: table, context: { 'dynamodb:LeadingKeys': ['ORG#o1#TXN#t1', 'OAUTHKEY#k1'] } },
      { functionLogicalId: fn, action: 'dynamodb:GetItem', resource: table, context: leading('OAUTHKEY#k1') },
      { functionLogicalId: fn, action: 'dynamodb:PutItem', resource: table, context: leading('ORG#o1#TXN#t1') },
      { functionLogicalId: oauth, action: 'dynamodb:PutItem', resource: table, context: leading('OAUTHKEY#k1') },
    ];
    const { denied, allowed } = await evaluateCalls(t, calls, { impliedKmsCalls: false });
    expect(denied.map((d) => [d.action, d.decision])).toEqual([
      ['dynamodb:PutItem', 'ExplicitlyDenied'],
      ['dynamodb:BatchWriteItem', 'ExplicitlyDenied'],
    ]);
    expect(allowed.map((a) => [a.functionLogicalId === oauth ? 'oauth' : 'transactions', a.action, (a.context?.['dynamodb:LeadingKeys'] as string[])[0]])).toEqual([
      ['transactions', 'dynamodb:GetItem', 'OAUTHKEY#k1'],
      ['transactions', 'dynamodb:PutItem', 'ORG#o1#TXN#t1'],
      ['oauth', 'dynamodb:PutItem', 'OAUTHKEY#k1'],
    ]);
  });

  it("lets the workspace purge list and delete the organization's objects under every root (stored reports included), and no other prefix", async () => {
    const purge = idOf('AWS::Lambda::Function', 'LifecyclePurgeFunction');
    const documents = t.getAtt(idOf('AWS::S3::Bucket', 'ExtractionDocuments'), 'Arn');
    const objects = orgObjectPrefixes('o1').map((prefix) => `${documents}/${prefix}file`);
    const calls: AwsCall[] = [
      ...objects.map((resource) => ({ functionLogicalId: purge, action: 's3:DeleteObject', resource })),
      ...orgObjectPrefixes('o1').map((prefix) => ({ functionLogicalId: purge, action: 's3:ListBucket', resource: documents, context: { 's3:prefix': prefix } })),
      { functionLogicalId: purge, action: 's3:DeleteObject', resource: `${documents}/inbound/m1` },
    ];
    const { denied, allowed } = await evaluateCalls(t, calls, { impliedKmsCalls: false });
    expect(objects).toContain(`${documents}/reports/o1/file`);
    expect(allowed.filter((a) => a.action === 's3:DeleteObject').map((a) => a.resource)).toEqual(objects);
    expect(allowed.filter((a) => a.action === 's3:ListBucket').map((a) => a.context?.['s3:prefix'])).toEqual(orgObjectPrefixes('o1'));
    expect(denied.map((d) => [d.action, d.resource])).toEqual([['s3:DeleteObject', `${documents}/inbound/m1`]]);
  });

  it('denies a key whose policy lacks the account-root statement, even though the role policy allows it', async () => {
    const keyId = idOf('AWS::KMS::Key', 'DataKey');
    const copy = edited(keyId, (props) => {
      props.KeyPolicy.Statement = [{ Effect: 'Allow', Principal: { Service: 'logs.amazonaws.com' }, Action: 'kms:*', Resource: '*' }];
    });
    const call: AwsCall = { functionLogicalId: fn, action: 'kms:Decrypt', resource: dataKey };
    expect((await evaluateCalls(t, [call])).denied).toEqual([]);
    const { denied } = await evaluateCalls(copy, [call]);
    expect(denied).toHaveLength(1);
    expect(denied[0]!.reason).toContain(`the key policy (${keyId}) neither allows`);
  });

  it('reports an explicit deny of a resource policy: the bucket refuses plain HTTP', async () => {
    const messaging = idOf('AWS::Lambda::Function', 'DocumentsApiFunction');
    const object = `${t.getAtt(idOf('AWS::S3::Bucket', 'ExtractionDocuments'), 'Arn')}/org/o1/doc.pdf`;
    const { denied } = await evaluateCalls(t, [{ functionLogicalId: messaging, action: 's3:GetObject', resource: object, context: { 'aws:SecureTransport': 'false' } }]);
    expect(denied).toMatchObject([{ decision: 'ExplicitlyDenied' }]);
    expect(denied[0]!.reason).toMatch(/explicitly denied by resource policy ExtractionDocumentsPolicy\w+ statement #1/);
  });

  it('judges the KMS calls SQS makes with the function credentials, and denies them once the key grant is gone', async () => {
    const fanout = idOf('AWS::Lambda::Function', 'WebhooksFanoutFunction');
    const queue = t.getAtt(idOf('AWS::SQS::Queue', 'WebhooksDeliveryQueue'), 'Arn');
    const send: AwsCall = { functionLogicalId: fanout, action: 'sqs:SendMessage', resource: queue };
    const before = await evaluateCalls(t, [send]);
    expect(before.denied, formatDenials(before.denied)).toEqual([]);
    expect(before.allowed.filter((a) => a.impliedBy).map((a) => [a.action, a.resource, a.impliedBy])).toEqual([
      ['kms:GenerateDataKey', dataKey, `sqs:SendMessage ${queue}`],
      ['kms:Decrypt', dataKey, `sqs:SendMessage ${queue}`],
    ]);
    const policy = functionPolicies(t, fanout).identity.find((p) => statementsOf(p.document).some((st) => [st.Action].flat().includes('kms:GenerateDataKey')))!;
    const copy = edited(policy.source, (props) => {
      for (const st of props.PolicyDocument.Statement) if (Array.isArray(st.Action)) st.Action = st.Action.filter((a: string) => !a.startsWith('kms:GenerateDataKey'));
    });
    const { denied } = await evaluateCalls(copy, [send]);
    expect(denied.map((d) => [d.action, d.resource])).toEqual([['kms:GenerateDataKey', dataKey]]);
    expect(denied[0]!.reason).toContain(`may not kms:GenerateDataKey on ${dataKey} (for sqs:SendMessage ${queue})`);
  });

  it('marks a request the simulator cannot judge as Invalid, never as allowed', async () => {
    const { denied } = await evaluateCalls(t, [{ functionLogicalId: fn, action: 'dynamodb:PutItem', resource: 'https://sqs.us-east-1.amazonaws.com/123456789012/q' }]);
    expect(denied.map((d) => d.decision)).toEqual(['Invalid']);
  });
});

describe('unusedGrants', () => {
  it('lists the Allow pairs no call matched and leaves out the used ones', () => {
    const unused = unusedGrants(t, [{ functionLogicalId: fn, action: 'dynamodb:PutItem', resource: table }], [fn]);
    const pairs = unused.map((u) => `${u.action} ${u.resource}`);
    expect(pairs).not.toContain(`dynamodb:PutItem ${table}`);
    expect(pairs).toContain(`dynamodb:PutItem ${table}/index/*`);
    expect(pairs).toContain(`dynamodb:UpdateItem ${table}`);
    expect(pairs).toContain('logs:CreateLogStream *');
    expect(new Set(unused.map((u) => u.functionLogicalId))).toEqual(new Set([fn]));
  });
});
