/**
 * The assembly runtime's two pure pieces: Lambda event filtering as the stream mapping's pattern applies it, and
 * the mapping of a SigV4 request to the IAM actions and ARNs it is authorized against (a Lambda Invoke included).
 */
import { describe, expect, it } from 'vitest';
import { eventFilter } from '#lib/local/assembly/event-filter';
import { describeCall, type DescribeContext } from '#lib/local/assembly/call-describer';
import type { GatewayRequest } from '#lib/local/assembly/aws-gateway';

const OUTBOX = '{"eventName":["INSERT"],"dynamodb":{"NewImage":{"entity":{"S":["OutboxEvent"]}}}}';

describe('eventFilter', () => {
  const outboxOnly = eventFilter([OUTBOX]);
  it('lets through what the pattern names and nothing else', () => {
    expect(outboxOnly({ eventName: 'INSERT', dynamodb: { NewImage: { entity: { S: 'OutboxEvent' } } } })).toBe(true);
    expect(outboxOnly({ eventName: 'MODIFY', dynamodb: { NewImage: { entity: { S: 'OutboxEvent' } } } })).toBe(false);
    expect(outboxOnly({ eventName: 'INSERT', dynamodb: { NewImage: { entity: { S: 'Task' } } } })).toBe(false);
    expect(outboxOnly({ eventName: 'INSERT' })).toBe(false);
  });
  it('matches any of several patterns, and everything without one', () => {
    const either = eventFilter([OUTBOX, '{"eventName":["REMOVE"]}']);
    expect(either({ eventName: 'REMOVE' })).toBe(true);
    expect(eventFilter([])({ anything: 1 })).toBe(true);
  });
  it('refuses an operator it would not apply', () => {
    expect(() => eventFilter(['{"eventName":[{"prefix":"IN"}]}'])).toThrow(/operator/);
  });
});

const ctx: DescribeContext = {
  account: '123456789012',
  region: 'us-east-1',
  bucketKeys: new Map([['docs', 'arn:aws:kms:us-east-1:123456789012:key/k1']]),
  queueKeys: new Map([['q', 'arn:aws:kms:us-east-1:123456789012:key/k1']]),
  keyArnOf: (id) => (id.startsWith('arn:') ? id : `arn:aws:kms:us-east-1:123456789012:key/${id}`),
};
const req = (service: string, over: Partial<GatewayRequest>): GatewayRequest => ({ method: 'POST', url: new URL('http://127.0.0.1/'), headers: {}, body: Buffer.from(''), service, ...over });

describe('describeCall', () => {
  it('names a Lambda Invoke by the function its path names: an alias ARN as it is, a bare name as its ARN', () => {
    const alias = 'arn:aws:lambda:us-east-1:123456789012:function:tcs-ReportsPdf:live';
    expect(describeCall(req('lambda', { url: new URL(`http://127.0.0.1/2015-03-31/functions/${encodeURIComponent(alias)}/invocations`) }), ctx)).toEqual([{ action: 'lambda:InvokeFunction', resource: alias }]);
    expect(describeCall(req('lambda', { url: new URL('http://127.0.0.1/2015-03-31/functions/tcs-ReportsZip/invocations') }), ctx)).toEqual([
      { action: 'lambda:InvokeFunction', resource: 'arn:aws:lambda:us-east-1:123456789012:function:tcs-ReportsZip' },
    ]);
  });
  it('names one DynamoDB call per item of a transaction, and the index of a query', () => {
    const tx = req('dynamodb', { target: 'TransactWriteItems', body: Buffer.from(JSON.stringify({ TransactItems: [{ Put: { TableName: 't' } }, { ConditionCheck: { TableName: 't' } }] })) });
    expect(describeCall(tx, ctx).map((c) => c.action)).toEqual(['dynamodb:PutItem', 'dynamodb:ConditionCheckItem']);
    const q = req('dynamodb', { target: 'Query', body: Buffer.from(JSON.stringify({ TableName: 't', IndexName: 'GSI1' })) });
    expect(describeCall(q, ctx)).toEqual([{ action: 'dynamodb:Query', resource: 'arn:aws:dynamodb:us-east-1:123456789012:table/t/index/GSI1' }]);
  });
  it('adds the KMS calls SSE-KMS makes with the caller’s permissions (S3 put, SQS send)', () => {
    const put = describeCall(req('s3', { method: 'PUT', url: new URL('http://127.0.0.1/docs/org/a%20b.pdf') }), ctx);
    expect(put).toEqual([
      { action: 's3:PutObject', resource: 'arn:aws:s3:::docs/org/a b.pdf' },
      { action: 'kms:GenerateDataKey', resource: 'arn:aws:kms:us-east-1:123456789012:key/k1', context: { 'kms:ViaService': 's3.us-east-1.amazonaws.com' } },
    ]);
    const send = describeCall(req('sqs', { target: 'SendMessageBatch', body: Buffer.from(JSON.stringify({ QueueUrl: 'http://127.0.0.1:1/123456789012/q' })) }), ctx);
    expect(send.map((c) => c.action)).toEqual(['sqs:SendMessage', 'kms:GenerateDataKey', 'kms:Decrypt']);
    expect(send[0]!.resource).toBe('arn:aws:sqs:us-east-1:123456789012:q');
  });
  it('a schedule passes its role to the scheduler', () => {
    const body = { GroupName: 'g', ScheduleExpression: 'at(2030-01-01T00:00:00)', Target: { Arn: 'arn:aws:lambda:us-east-1:123456789012:function:f', RoleArn: 'arn:aws:iam::123456789012:role/r' } };
    const calls = describeCall(req('scheduler', { url: new URL('http://127.0.0.1/schedules/s1'), body: Buffer.from(JSON.stringify(body)) }), ctx);
    expect(calls).toEqual([
      { action: 'scheduler:CreateSchedule', resource: 'arn:aws:scheduler:us-east-1:123456789012:schedule/g/s1' },
      { action: 'iam:PassRole', resource: 'arn:aws:iam::123456789012:role/r', context: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
    ]);
  });
  it('Textract reads the document from S3 as the caller', () => {
    const start = req('textract', { target: 'StartDocumentAnalysis', body: Buffer.from(JSON.stringify({ DocumentLocation: { S3Object: { Bucket: 'docs', Name: 'org/x.pdf' } } })) });
    expect(describeCall(start, ctx).map((c) => `${c.action} ${c.resource}`)).toEqual([
      'textract:StartDocumentAnalysis *',
      's3:GetObject arn:aws:s3:::docs/org/x.pdf',
      'kms:Decrypt arn:aws:kms:us-east-1:123456789012:key/k1',
    ]);
  });
});
