/**
 * The resources the assembly runtime creates or reads from a template: the tables (DynamoDB Local), the queues
 * (local-aws-sqs, redrive as declared), the buckets' Lambda notifications and default encryption, and the SES
 * receipt rule's S3 action.
 */
import { createServer } from 'node:http';
import { createRequestHandler } from 'local-aws-sqs';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { CreateTableCommand, DynamoDBClient, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { freePort } from '#lib/local/dynamodb-local';
import { keepReceiveCountOnVisibilityChange, type EngineQueue } from '#lib/local/sqs-local';
import type { LoadedTemplate } from './cloud-assembly.ts';
import { ASSEMBLY_ACCOUNT, ASSEMBLY_REGION } from './naming.ts';

/** Creates each `AWS::DynamoDB::Table` as the template declares it (keys, GSIs, stream, TTL). */
export async function createTables(t: LoadedTemplate, endpoint: string): Promise<Array<{ name: string; arn: string }>> {
  const client = new DynamoDBClient({ endpoint, region: ASSEMBLY_REGION, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const out: Array<{ name: string; arn: string }> = [];
  try {
    for (const id of t.ofType('AWS::DynamoDB::Table')) {
      const p = t.resolve(t.resources[id]!.Properties) as Record<string, any>;
      const name = String(t.resolve({ Ref: id }));
      await client
        .send(
          new CreateTableCommand({
            TableName: name,
            BillingMode: 'PAY_PER_REQUEST',
            AttributeDefinitions: p.AttributeDefinitions,
            KeySchema: p.KeySchema,
            GlobalSecondaryIndexes: p.GlobalSecondaryIndexes?.map((g: Record<string, unknown>) => ({ IndexName: g.IndexName, KeySchema: g.KeySchema, Projection: g.Projection })),
            StreamSpecification: p.StreamSpecification ? { StreamEnabled: true, StreamViewType: p.StreamSpecification.StreamViewType } : undefined,
          }),
        )
        .catch((err: { name?: string }) => {
          if (err.name !== 'ResourceInUseException') throw err;
        });
      if (p.TimeToLiveSpecification?.Enabled) {
        await client.send(new UpdateTimeToLiveCommand({ TableName: name, TimeToLiveSpecification: { AttributeName: p.TimeToLiveSpecification.AttributeName, Enabled: true } })).catch(() => undefined);
      }
      out.push({ name, arn: String(t.resolve({ 'Fn::GetAtt': [id, 'Arn'] })) });
    }
  } finally {
    client.destroy();
  }
  return out;
}

/** local-aws-sqs with every `AWS::SQS::Queue` of the templates (redrive policies and visibility as declared). */
export async function startQueues(templates: LoadedTemplate[]) {
  const port = await freePort();
  const { service, requestHandler } = createRequestHandler({ port, hostname: '127.0.0.1', region: ASSEMBLY_REGION, emulateQueueCreationLifecycle: false });
  const server = createServer(requestHandler);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new SQSClient({ endpoint, region: ASSEMBLY_REGION, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const urls = new Map<string, string>();
  const keys = new Map<string, string>();
  const engineArn = new Map<string, string>();
  const queues = templates.flatMap((t) => t.ofType('AWS::SQS::Queue').map((id) => ({ t, id, props: t.resolve(t.resources[id]!.Properties ?? {}) as Record<string, any> })));
  // Dead-letter queues first, so a redrive policy can name the engine's ARN.
  queues.sort((a, b) => Number(Boolean(a.props.RedrivePolicy)) - Number(Boolean(b.props.RedrivePolicy)));
  for (const q of queues) {
    const name = String(q.t.resolve({ 'Fn::GetAtt': [q.id, 'QueueName'] }));
    const attributes: Record<string, string> = {};
    if (q.props.VisibilityTimeout !== undefined) attributes.VisibilityTimeout = String(q.props.VisibilityTimeout);
    if (q.props.RedrivePolicy) {
      const dlq = String(q.props.RedrivePolicy.deadLetterTargetArn).split(':').pop()!;
      attributes.RedrivePolicy = JSON.stringify({ deadLetterTargetArn: engineArn.get(dlq), maxReceiveCount: q.props.RedrivePolicy.maxReceiveCount });
    }
    const url = (await client.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }))).QueueUrl!;
    urls.set(name, url);
    engineArn.set(name, (await client.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }))).Attributes!.QueueArn!);
    if (q.props.KmsMasterKeyId) keys.set(name, String(q.props.KmsMasterKeyId));
  }
  for (const q of service.Queues) keepReceiveCountOnVisibilityChange(q as unknown as EngineQueue);
  const engineUrlOfName = (name: string) => {
    const url = urls.get(name);
    if (!url) throw new Error(`no queue ${name} in the assembly`);
    return url;
  };
  return {
    endpoint,
    client,
    keys: keys as ReadonlyMap<string, string>,
    engineUrlOfName,
    engineUrlOfArn: (arn: string) => engineUrlOfName(arn.split(':').pop()!),
    stop: () =>
      new Promise<void>((resolve) => {
        client.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The Lambda targets of `Custom::S3BucketNotifications` (bucket, key prefix, function ARN). */
export function bucketNotifications(t: LoadedTemplate): Array<{ bucket: string; prefix: string; functionArn: string }> {
  return t.ofType('Custom::S3BucketNotifications').flatMap((id) => {
    const p = t.resolve(t.resources[id]!.Properties) as { BucketName: string; NotificationConfiguration: { LambdaFunctionConfigurations?: Array<{ LambdaFunctionArn: string; Filter?: { Key?: { FilterRules?: Array<{ Name: string; Value: string }> } } }> } };
    return (p.NotificationConfiguration.LambdaFunctionConfigurations ?? []).map((c) => ({
      bucket: p.BucketName,
      prefix: c.Filter?.Key?.FilterRules?.find((r) => r.Name.toLowerCase() === 'prefix')?.Value ?? '',
      functionArn: c.LambdaFunctionArn,
    }));
  });
}

/** The SSE-KMS key ARN of a bucket of the template, or undefined (SSE-S3 or none). */
export function bucketKeyOf(t: LoadedTemplate, bucket: string): string | undefined {
  for (const id of t.ofType('AWS::S3::Bucket')) {
    if (String(t.resolve({ Ref: id })) !== bucket) continue;
    const rules = (t.resolve(t.resources[id]!.Properties?.BucketEncryption) as { ServerSideEncryptionConfiguration?: Array<{ ServerSideEncryptionByDefault?: { SSEAlgorithm: string; KMSMasterKeyID?: string } }> } | undefined)?.ServerSideEncryptionConfiguration;
    const sse = rules?.[0]?.ServerSideEncryptionByDefault;
    return sse?.SSEAlgorithm === 'aws:kms' ? sse.KMSMasterKeyID : undefined;
  }
  return undefined;
}

/** The SES receipt rule's S3 action: recipient domain, bucket, key prefix and the rule's ARN. */
export function receiptRule(t: LoadedTemplate): { domain: string; bucket: string; prefix: string; ruleArn: string } | undefined {
  for (const id of t.ofType('AWS::SES::ReceiptRule')) {
    const p = t.resolve(t.resources[id]!.Properties) as { RuleSetName: string; Rule: { Name: string; Recipients?: string[]; Actions?: Array<{ S3Action?: { BucketName: string; ObjectKeyPrefix?: string } }> } };
    const action = p.Rule.Actions?.find((a) => a.S3Action)?.S3Action;
    if (!action) continue;
    return {
      domain: p.Rule.Recipients?.[0] ?? '',
      bucket: action.BucketName,
      prefix: action.ObjectKeyPrefix ?? '',
      ruleArn: `arn:aws:ses:${ASSEMBLY_REGION}:${ASSEMBLY_ACCOUNT}:receipt-rule-set/${p.RuleSetName}:receipt-rule/${p.Rule.Name}`,
    };
  }
  return undefined;
}

