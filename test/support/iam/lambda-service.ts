/**
 * What the Lambda service does with a function's execution role on the function's behalf: no call of the
 * function's code covers it, so the evaluation of recorded calls (./evaluate.ts) cannot see it fail. Lambda
 * Developer Guide, "Lambda execution role" and each event source's "Execution role permissions":
 * - an SQS event source mapping: `sqs:ReceiveMessage`, `sqs:DeleteMessage`, `sqs:GetQueueAttributes` on the queue,
 *   `kms:Decrypt` on its key;
 * - a DynamoDB stream mapping: `dynamodb:DescribeStream`, `dynamodb:GetRecords`, `dynamodb:GetShardIterator` on the
 *   stream, `dynamodb:ListStreams`, `kms:Decrypt` on the table's customer managed key;
 * - a mapping's or an asynchronous invocation's (`AWS::Lambda::EventInvokeConfig`) destinations and a function's
 *   `DeadLetterConfig`: `sqs:SendMessage` (+ `kms:GenerateDataKey`, `kms:Decrypt` on the queue's key),
 *   `sns:Publish`, `lambda:InvokeFunction`, `events:PutEvents`.
 */
import { asRole, keyArn, queueKey, type Pending } from './requests.ts';
import type { DeployedTemplate, Located } from './template.ts';

/** The checks for every event source mapping, destination and dead-letter target in the template. */
export function lambdaServiceChecks(t: DeployedTemplate): Pending[] {
  const out: Pending[] = [];
  for (const loc of t.ofType('AWS::Lambda::EventSourceMapping')) {
    const p = t.props(loc);
    const role = roleOf(t, p.FunctionName);
    const subject = `event source mapping ${loc.logicalId}`;
    const source = String(p.EventSourceArn);
    if (source.includes(':sqs:')) {
      for (const action of ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes']) out.push(asRole(t, subject, role, action, source));
      const key = queueKey(t, source);
      if (key) out.push(asRole(t, subject, role, 'kms:Decrypt', key, { 'kms:ViaService': `sqs.${t.region}.amazonaws.com` }));
    }
    if (source.includes(':dynamodb:') && source.includes('/stream/')) {
      for (const action of ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator']) out.push(asRole(t, subject, role, action, source));
      out.push(asRole(t, subject, role, 'dynamodb:ListStreams', '*'));
      const key = tableKey(t, source.slice(0, source.indexOf('/stream/')));
      if (key) out.push(asRole(t, subject, role, 'kms:Decrypt', key, { 'kms:ViaService': `dynamodb.${t.region}.amazonaws.com` }));
    }
    const onFailure = p.DestinationConfig?.OnFailure?.Destination as string | undefined;
    if (onFailure) out.push(...deliver(t, subject, role, onFailure));
  }
  for (const loc of t.ofType('AWS::Lambda::EventInvokeConfig')) {
    const p = t.props(loc);
    const role = roleOf(t, p.FunctionName);
    for (const when of ['OnFailure', 'OnSuccess']) {
      const destination = p.DestinationConfig?.[when]?.Destination as string | undefined;
      if (destination) out.push(...deliver(t, `${when === 'OnFailure' ? 'failure' : 'success'} destination ${loc.logicalId}`, role, destination));
    }
  }
  for (const loc of t.ofType('AWS::Lambda::Function')) {
    const target = t.props(loc).DeadLetterConfig?.TargetArn as string | undefined;
    if (target) out.push(...deliver(t, `dead-letter target ${loc.logicalId}`, functionRole(t, loc), target));
  }
  return out;
}

/** Requests that hand a record to `destination` (queue, topic, function or event bus) as `role`. */
function deliver(t: DeployedTemplate, subject: string, role: string, destination: string): Pending[] {
  const service = destination.split(':')[2];
  if (service === 'sqs') {
    const key = queueKey(t, destination);
    const via = { 'kms:ViaService': `sqs.${t.region}.amazonaws.com` };
    return [asRole(t, subject, role, 'sqs:SendMessage', destination), ...(key ? [asRole(t, subject, role, 'kms:GenerateDataKey', key, via), asRole(t, subject, role, 'kms:Decrypt', key, via)] : [])];
  }
  if (service === 'sns') return [asRole(t, subject, role, 'sns:Publish', destination)];
  if (service === 'lambda') return [asRole(t, subject, role, 'lambda:InvokeFunction', destination)];
  if (service === 'events') return [asRole(t, subject, role, 'events:PutEvents', destination)];
  return [];
}

/** The execution role ARN of the function a `FunctionName` names (a name, an ARN, either with a qualifier). */
function roleOf(t: DeployedTemplate, functionName: string): string {
  const name = functionName.startsWith('arn:') ? functionName.split(':')[6]! : functionName.split(':')[0]!;
  const fn = t.ofType('AWS::Lambda::Function').find((l) => t.ref(l) === name);
  if (!fn) throw new Error(`function ${functionName} is not in the template`);
  return functionRole(t, fn);
}

const functionRole = (t: DeployedTemplate, fn: Located): string => String(t.props(fn).Role);

/** The customer managed key of the template's table with ARN `tableArn`, if any (`SSESpecification`). */
function tableKey(t: DeployedTemplate, tableArn: string): string | undefined {
  const table = t.ofType('AWS::DynamoDB::Table').find((l) => t.getAtt(l, 'Arn') === tableArn);
  const sse = table ? t.props(table).SSESpecification : undefined;
  return sse?.SSEEnabled && sse.SSEType === 'KMS' ? keyArn(t, sse.KMSMasterKeyId ?? 'alias/aws/dynamodb') : undefined;
}
