/**
 * Local restart recovery: local-aws-sqs keeps messages in memory, so on start the runtime re-enqueues every
 * delivery still pending in the table (sparse GSI2 `DLVPENDING#<shard>`). A retry already scheduled keeps
 * its time (SQS `DelaySeconds`, at most 15 min). In AWS, SQS is durable and this is not needed.
 */
import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { listPendingDeliveries } from '#db/webhook-deliveries';
import { db, tableName } from '#db/client';
import { sqs, webhookQueueUrl } from '#ports/sqs';

/** @returns how many deliveries were re-enqueued */
export async function requeuePendingDeliveries(now = Date.now()): Promise<number> {
  const pending = await listPendingDeliveries();
  for (let i = 0; i < pending.length; i += 10) {
    const chunk = pending.slice(i, i + 10);
    const delays = await Promise.all(chunk.map((m) => nextRetryDelay(m.orgId, m.subscriptionId, m.eventId, now)));
    await sqs().send(
      new SendMessageBatchCommand({
        QueueUrl: webhookQueueUrl(),
        Entries: chunk.map((m, j) => ({ Id: String(j), MessageBody: JSON.stringify(m), DelaySeconds: delays[j] })),
      }),
    );
  }
  return pending.length;
}

/** Seconds until the delivery's scheduled retry (0 when due or unknown), capped at SQS's 900. */
async function nextRetryDelay(orgId: string, subscriptionId: string, eventId: string, now: number): Promise<number> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND SK = :sk',
      ExpressionAttributeValues: { ':pk': `ORG#${orgId}#WEBHOOK#${subscriptionId}`, ':sk': `DLV#${eventId}` },
      ProjectionExpression: 'nextRetryAt',
    }),
  );
  const next = out.Items?.[0]?.nextRetryAt as string | null | undefined;
  if (!next) return 0;
  return Math.min(900, Math.max(0, Math.ceil((Date.parse(next) - now) / 1000)));
}
