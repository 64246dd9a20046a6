/**
 * The KMS requests AWS makes with the caller's own credentials when a call touches an encrypted resource of the
 * template, which a local runtime never sees (local S3 and SQS do not encrypt):
 * - S3 object into / out of a bucket whose default encryption is SSE-KMS: `s3:PutObject` → `kms:GenerateDataKey`,
 *   `s3:GetObject` → `kms:Decrypt` (S3 User Guide, "Permissions for SSE-KMS").
 * - SQS queue with SSE-KMS: `sqs:SendMessage` → `kms:GenerateDataKey` and `kms:Decrypt`, `sqs:ReceiveMessage` →
 *   `kms:Decrypt` (SQS Developer Guide, "Key management", producer and consumer permissions).
 * - SNS topic with SSE-KMS: `sns:Publish` → `kms:GenerateDataKey` and `kms:Decrypt` (SNS Developer Guide,
 *   "Encryption at rest", publisher permissions).
 * Each carries `kms:ViaService` of the service that calls KMS. DynamoDB is left out: it reaches the table key
 * through its own grant, not the caller's.
 */
import type { AwsCall } from './evaluate.ts';
import { bucketDefaultKey, queueKey, topicKey } from './requests.ts';
import type { DeployedTemplate } from './template.ts';

/** A KMS call implied by a recorded call; `impliedBy` names it (`<action> <resource>`). */
export type ImpliedCall = AwsCall & { impliedBy: string };

/**
 * The KMS calls `calls` imply, each once per (function, action, key, origin). Calls on resources outside the
 * template, or unencrypted ones, imply none.
 */
export function impliedKmsCalls(t: DeployedTemplate, calls: readonly AwsCall[]): ImpliedCall[] {
  const out = new Map<string, ImpliedCall>();
  for (const call of calls) {
    const action = call.action.toLowerCase();
    const service = call.resource.split(':')[2];
    let key: string | undefined;
    let kmsActions: string[] = [];
    if (service === 's3' && (action === 's3:putobject' || action === 's3:getobject')) {
      key = bucketDefaultKey(t, call.resource.split(':::')[1]!.split('/')[0]!);
      kmsActions = action === 's3:putobject' ? ['kms:GenerateDataKey'] : ['kms:Decrypt'];
    } else if (service === 'sqs' && (action === 'sqs:sendmessage' || action === 'sqs:receivemessage')) {
      key = queueKey(t, call.resource);
      kmsActions = action === 'sqs:sendmessage' ? ['kms:GenerateDataKey', 'kms:Decrypt'] : ['kms:Decrypt'];
    } else if (service === 'sns' && action === 'sns:publish') {
      key = topicKey(t, call.resource);
      kmsActions = ['kms:GenerateDataKey', 'kms:Decrypt'];
    }
    if (!key) continue;
    const impliedBy = `${call.action} ${call.resource}`;
    for (const kms of kmsActions) {
      const implied: ImpliedCall = { functionLogicalId: call.functionLogicalId, action: kms, resource: key, context: { 'kms:ViaService': `${service}.${t.region}.amazonaws.com` }, impliedBy };
      out.set(JSON.stringify([implied.functionLogicalId, kms, key, impliedBy]), implied);
    }
  }
  return [...out.values()];
}
