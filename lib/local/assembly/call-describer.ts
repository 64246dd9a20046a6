/**
 * Maps one SigV4 request to the IAM actions and resource ARNs AWS authorizes it against (the Service
 * Authorization Reference's "Actions, resources, and condition keys" pages), including the calls a service makes
 * with the caller's permissions: SSE-KMS on an S3 object or an SQS queue needs `kms:GenerateDataKey` to write and
 * `kms:Decrypt` to read, and Textract reads the document from S3 as the caller.
 */
import type { AwsCall, GatewayRequest } from './aws-gateway.ts';

type Call = Omit<AwsCall, 'caller' | 'callerKind'>;

/** What the describer knows of the deployed resources. */
export interface DescribeContext {
  account: string;
  region: string;
  /** KMS key ARN of each SSE-KMS bucket, by bucket name. */
  bucketKeys: ReadonlyMap<string, string>;
  /** KMS key ARN of each SSE-KMS queue, by queue name. */
  queueKeys: ReadonlyMap<string, string>;
  /** A key id, alias or ARN → the key's ARN. */
  keyArnOf(keyId: string): string;
}

/** The IAM calls of `req`. Unknown shapes give an empty list (the backend then refuses them). */
export function describeCall(req: GatewayRequest, ctx: DescribeContext): Call[] {
  const json = () => (req.body.length ? (JSON.parse(req.body.toString('utf8')) as Record<string, any>) : {});
  const arn = (service: string, resource: string) => `arn:aws:${service}:${ctx.region}:${ctx.account}:${resource}`;
  switch (req.service) {
    case 'dynamodb':
      return dynamodbCalls(req.target ?? '', json(), (table, index) => arn('dynamodb', `table/${table}${index ? `/index/${index}` : ''}`));
    case 'sqs': {
      const body = json();
      const name = String(body.QueueUrl ?? '').split('/').pop() ?? '';
      const action = `sqs:${req.target === 'SendMessageBatch' ? 'SendMessage' : req.target === 'DeleteMessageBatch' ? 'DeleteMessage' : req.target === 'ChangeMessageVisibilityBatch' ? 'ChangeMessageVisibility' : req.target}`;
      const calls: Call[] = [{ action, resource: arn('sqs', name) }];
      const key = ctx.queueKeys.get(name);
      if (key && action === 'sqs:SendMessage') calls.push(kms('kms:GenerateDataKey', key, `sqs.${ctx.region}.amazonaws.com`), kms('kms:Decrypt', key, `sqs.${ctx.region}.amazonaws.com`));
      if (key && action === 'sqs:ReceiveMessage') calls.push(kms('kms:Decrypt', key, `sqs.${ctx.region}.amazonaws.com`));
      return calls;
    }
    case 's3':
      return s3Calls(req, ctx);
    case 'states':
      return [{ action: `states:${req.target}`, resource: String(json().stateMachineArn ?? json().executionArn ?? '*') }];
    case 'textract': {
      const body = json();
      const calls: Call[] = [{ action: `textract:${req.target}`, resource: '*' }];
      const object = body.DocumentLocation?.S3Object as { Bucket?: string; Name?: string } | undefined;
      if (object?.Bucket) {
        calls.push({ action: 's3:GetObject', resource: `arn:aws:s3:::${object.Bucket}/${object.Name}` });
        const key = ctx.bucketKeys.get(object.Bucket);
        if (key) calls.push(kms('kms:Decrypt', key, `s3.${ctx.region}.amazonaws.com`));
      }
      return calls;
    }
    case 'kms':
      return [{ action: `kms:${req.target}`, resource: ctx.keyArnOf(String(json().KeyId ?? '')) }];
    case 'ses':
      return sesCalls(req, json, arn);
    case 'scheduler':
      return schedulerCalls(req, json, arn);
    case 'sms-voice': {
      const body = json();
      const calls: Call[] = [{ action: `sms-voice:${req.target}`, resource: '*' }];
      if (body.OriginationIdentity) calls[0] = { action: `sms-voice:${req.target}`, resource: String(body.OriginationIdentity).startsWith('arn:') ? body.OriginationIdentity : arn('sms-voice', `phone-number/${body.OriginationIdentity}`) };
      if (body.ConfigurationSetName) calls.push({ action: `sms-voice:${req.target}`, resource: arn('sms-voice', `configuration-set/${body.ConfigurationSetName}`) });
      return calls;
    }
    case 'sns': {
      const form = new URLSearchParams(req.body.toString('utf8'));
      return [{ action: `sns:${form.get('Action')}`, resource: form.get('TopicArn') ?? form.get('TargetArn') ?? form.get('PlatformApplicationArn') ?? '*' }];
    }
    case 'lambda': {
      // Invoke: the function as the path names it (an ARN, qualified by the alias, or a bare name).
      const fn = decodeURIComponent(/\/functions\/([^/]+)\/invocations$/.exec(req.url.pathname)?.[1] ?? '');
      return [{ action: 'lambda:InvokeFunction', resource: fn.startsWith('arn:') ? fn : arn('lambda', `function:${fn}`) }];
    }
    case 'secretsmanager':
      return [{ action: `secretsmanager:${req.target}`, resource: arn('secretsmanager', `secret:${String(json().SecretId ?? '')}`) }];
    default:
      return [{ action: `${req.service}:${req.target ?? req.method}`, resource: '*' }];
  }
}

const kms = (action: string, key: string, via: string): Call => ({ action, resource: key, context: { 'kms:ViaService': via } });

/** DynamoDB: one call per table (and index) a request names. */
function dynamodbCalls(op: string, body: Record<string, any>, tableArn: (table: string, index?: string) => string): Call[] {
  if (op === 'TransactWriteItems') {
    return (body.TransactItems as Record<string, { TableName: string }>[]).map((item) => {
      const [kind, spec] = Object.entries(item)[0]!;
      const action = { Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', ConditionCheck: 'ConditionCheckItem' }[kind] ?? kind;
      return { action: `dynamodb:${action}`, resource: tableArn(spec.TableName) };
    });
  }
  if (op === 'TransactGetItems') return (body.TransactItems as { Get: { TableName: string } }[]).map((i) => ({ action: 'dynamodb:GetItem', resource: tableArn(i.Get.TableName) }));
  if (op === 'BatchWriteItem' || op === 'BatchGetItem') return Object.keys(body.RequestItems ?? {}).map((t) => ({ action: `dynamodb:${op}`, resource: tableArn(t) }));
  return [{ action: `dynamodb:${op}`, resource: tableArn(String(body.TableName ?? ''), body.IndexName) }];
}

/** S3 REST (path-style): method, sub-resource and key → action. */
function s3Calls(req: GatewayRequest, ctx: DescribeContext): Call[] {
  const [, bucket = '', ...rest] = req.url.pathname.split('/');
  const key = decodeURIComponent(rest.join('/'));
  const q = req.url.searchParams;
  const object = `arn:aws:s3:::${bucket}/${key}`;
  const kmsKey = ctx.bucketKeys.get(bucket);
  const via = `s3.${ctx.region}.amazonaws.com`;
  const writes = (action: string): Call[] => [{ action, resource: object }, ...(kmsKey ? [kms('kms:GenerateDataKey', kmsKey, via)] : [])];
  if (!key) {
    if (req.method === 'POST' && q.has('delete')) {
      const keys = [...req.body.toString('utf8').matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => m[1]!);
      return keys.map((k) => ({ action: 's3:DeleteObject', resource: `arn:aws:s3:::${bucket}/${k}` }));
    }
    return [{ action: req.method === 'GET' ? (q.has('versions') ? 's3:ListBucketVersions' : 's3:ListBucket') : `s3:${req.method}Bucket`, resource: `arn:aws:s3:::${bucket}` }];
  }
  switch (req.method) {
    case 'GET':
    case 'HEAD':
      return [{ action: q.has('versionId') ? 's3:GetObjectVersion' : 's3:GetObject', resource: object }, ...(kmsKey && req.method === 'GET' ? [kms('kms:Decrypt', kmsKey, via)] : [])];
    case 'PUT': {
      const source = req.headers['x-amz-copy-source'];
      const copy: Call[] = source ? [{ action: 's3:GetObject', resource: `arn:aws:s3:::${decodeURIComponent(String(source).replace(/^\//, '').split('?')[0]!)}` }] : [];
      return [...writes('s3:PutObject'), ...copy];
    }
    case 'POST':
      return writes('s3:PutObject'); // CreateMultipartUpload / CompleteMultipartUpload
    case 'DELETE':
      return [{ action: q.has('uploadId') ? 's3:AbortMultipartUpload' : q.has('versionId') ? 's3:DeleteObjectVersion' : 's3:DeleteObject', resource: object }];
    default:
      return [];
  }
}

/** SES v2 REST: SendEmail is authorized on the sending identity and the configuration set. */
function sesCalls(req: GatewayRequest, json: () => Record<string, any>, arn: (s: string, r: string) => string): Call[] {
  if (req.method === 'POST' && req.url.pathname === '/v2/email/outbound-emails') {
    const body = json();
    const from = String(body.FromEmailAddress ?? /^From:\s*(.*)$/im.exec(Buffer.from(String(body.Content?.Raw?.Data ?? ''), 'base64').toString('utf8'))?.[1] ?? '');
    const address = /<([^>]+)>/.exec(from)?.[1] ?? from.trim();
    const domain = address.split('@')[1] ?? address;
    const calls: Call[] = [{ action: 'ses:SendEmail', resource: arn('ses', `identity/${domain}`) }];
    if (body.ConfigurationSetName) calls.push({ action: 'ses:SendEmail', resource: arn('ses', `configuration-set/${body.ConfigurationSetName}`) });
    return calls;
  }
  return [{ action: `ses:${req.method}${req.url.pathname}`, resource: '*' }];
}

/** EventBridge Scheduler REST: `/schedules/{Name}`; creating or updating also passes the target's role. */
function schedulerCalls(req: GatewayRequest, json: () => Record<string, any>, arn: (s: string, r: string) => string): Call[] {
  const name = decodeURIComponent(req.url.pathname.split('/')[2] ?? '');
  const body = req.method === 'POST' || req.method === 'PUT' ? json() : {};
  const group = body.GroupName ?? req.url.searchParams.get('groupName') ?? 'default';
  const action = { POST: 'CreateSchedule', PUT: 'UpdateSchedule', DELETE: 'DeleteSchedule', GET: 'GetSchedule' }[req.method] ?? req.method;
  const calls: Call[] = [{ action: `scheduler:${action}`, resource: arn('scheduler', `schedule/${group}/${name}`) }];
  if (body.Target?.RoleArn) calls.push({ action: 'iam:PassRole', resource: String(body.Target.RoleArn), context: { 'iam:PassedToService': 'scheduler.amazonaws.com' } });
  return calls;
}
