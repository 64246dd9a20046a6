/**
 * Outbox fan-out (DynamoDB Streams → SQS): for each committed outbox event, one SQS message per matching
 * active subscription of its organization. `webhook.test` goes only to the subscription it names. A
 * delivery record is claimed before enqueueing, so replayed stream records skip deliveries that already
 * finished. Failed records are reported (`batchItemFailures`) so the stream retries from them.
 */
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { listWebhooks, wantsEvent, type WebhookSubscription } from '#db/webhooks';
import { claimDelivery, type DeliveryMessage } from '#db/webhook-deliveries';
import type { EventEnvelope } from '#events/outbox';
import { sqs, webhookQueueUrl } from '#ports/sqs';

/** The outbox envelope of a stream record, or undefined for anything else. */
export function envelopeOf(record: DynamoDBRecord): EventEnvelope | undefined {
  if (record.eventName !== 'INSERT' || !record.dynamodb?.NewImage) return undefined;
  const item = unmarshall(record.dynamodb.NewImage as Record<string, AttributeValue>);
  return item.entity === 'OutboxEvent' ? (item.envelope as EventEnvelope) : undefined;
}

/** Subscriptions that receive `envelope`. */
export function recipients(subs: WebhookSubscription[], envelope: EventEnvelope): WebhookSubscription[] {
  if (envelope.eventType === 'webhook.test') return subs.filter((s) => s.id === envelope.data.subscriptionId);
  return subs.filter((s) => s.isActive && wantsEvent(s, envelope.eventType));
}

async function fanOut(envelope: EventEnvelope, subsOf: (orgId: string) => Promise<WebhookSubscription[]>, now: Date): Promise<void> {
  const payload = JSON.stringify(envelope);
  const messages: DeliveryMessage[] = [];
  for (const s of recipients(await subsOf(envelope.organizationId), envelope)) {
    const m: DeliveryMessage = { orgId: envelope.organizationId, subscriptionId: s.id, eventId: envelope.eventId, eventType: envelope.eventType, payload };
    const state = await claimDelivery(m, now);
    if (state === 'new' || state === 'pending') messages.push(m);
  }
  for (let i = 0; i < messages.length; i += 10) {
    const chunk = messages.slice(i, i + 10);
    const out = await sqs().send(new SendMessageBatchCommand({ QueueUrl: webhookQueueUrl(), Entries: chunk.map((m, j) => ({ Id: String(j), MessageBody: JSON.stringify(m) })) }));
    if (out.Failed?.length) throw new Error(`SQS refused ${out.Failed.length} delivery messages`);
  }
}

/** Records fanned out at once: their claims and sends overlap, while stream order is kept for failures. */
const CONCURRENCY = 8;

export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const now = new Date();
  const cache = new Map<string, Promise<WebhookSubscription[]>>();
  const subsOf = (orgId: string) => {
    if (!cache.has(orgId)) cache.set(orgId, listWebhooks(orgId));
    return cache.get(orgId)!;
  };
  const failed = new Set<number>();
  let next = 0;
  const worker = async () => {
    while (next < event.Records.length) {
      const i = next++;
      const envelope = envelopeOf(event.Records[i]);
      if (!envelope) continue;
      try {
        await fanOut(envelope, subsOf, now);
      } catch (err) {
        console.error(JSON.stringify({ level: 'error', msg: 'fan-out failed', eventId: envelope.eventId, error: (err as Error).message }));
        failed.add(i);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  if (!failed.size) return { batchItemFailures: [] };
  // Report the earliest failure: the stream retries from it; records after it that succeeded are skipped
  // on the retry by their claimed delivery records (or delivered again, which receivers deduplicate).
  const first = Math.min(...failed);
  return { batchItemFailures: [{ itemIdentifier: event.Records[first].dynamodb!.SequenceNumber! }] };
}
