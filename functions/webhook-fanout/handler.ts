/**
 * Outbox fan-out (DynamoDB Streams → SQS): for each committed outbox event, one SQS message per matching
 * active subscription of its organization. `webhook.test` goes only to the subscription it names. A
 * delivery record is claimed before enqueueing, so replayed stream records skip deliveries that already
 * finished. Failed records are reported (`batchItemFailures`, through Powertools' `BatchProcessor`) so the
 * stream retries from the earliest of them.
 *
 * Each event also becomes the team's notifications (shared/use-cases/notify.ts), pushed to registered devices.
 *
 * Metrics (Count): `WebhookMessagesEnqueued` (delivery messages sent to the queue), `FanoutFailures` (outbox
 * records that failed, logged).
 */
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { listWebhooks, wantsEvent, type WebhookSubscription } from '#db/webhooks';
import { claimDelivery, type DeliveryMessage } from '#db/webhook-deliveries';
import type { EventEnvelope } from '#events/outbox';
import { isInternalEvent } from '#events/catalog';
import { sqs, webhookQueueUrl } from '#ports/sqs';
import { logger, metrics, observedHandler } from '#observability/powertools';
import { notifyFromEvent } from '#use-cases/notify';

/** The outbox envelope of a stream record, or undefined for anything else. */
export function envelopeOf(record: DynamoDBRecord): EventEnvelope | undefined {
  if (record.eventName !== 'INSERT' || !record.dynamodb?.NewImage) return undefined;
  const item = unmarshall(record.dynamodb.NewImage as Record<string, AttributeValue>);
  return item.entity === 'OutboxEvent' ? (item.envelope as EventEnvelope) : undefined;
}

/** Subscriptions that receive `envelope`. */
export function recipients(subs: WebhookSubscription[], envelope: EventEnvelope): WebhookSubscription[] {
  if (envelope.eventType === 'webhook.test') return subs.filter((s) => s.id === envelope.data.subscriptionId);
  if (isInternalEvent(envelope.eventType)) return [];
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
    metrics.addMetric('WebhookMessagesEnqueued', MetricUnit.Count, chunk.length);
  }
}

/** Records fanned out at once: their claims and sends overlap (the processor starts every record at once). */
const CONCURRENCY = 8;

/** `run` calls, at most `n` at a time. */
function limiter(n: number): <T>(run: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (run) => {
    if (active >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await run();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

const processor = new BatchProcessor(EventType.DynamoDBStreams);

/**
 * Lambda handler (DynamoDB stream event source with `reportBatchItemFailures`, filtered to outbox inserts).
 * Every failed record is reported by its sequence number; Lambda (and the local stream poller) retries the
 * stream from the lowest, and records after it that succeeded skip their claimed deliveries on the retry.
 * @returns the failed records; never throws for a failed batch
 */
export const handler = observedHandler<DynamoDBStreamEvent, DynamoDBBatchResponse>((event, context) => {
  const now = new Date();
  const cache = new Map<string, Promise<WebhookSubscription[]>>();
  const subsOf = (orgId: string) => {
    if (!cache.has(orgId)) cache.set(orgId, listWebhooks(orgId));
    return cache.get(orgId)!;
  };
  const limit = limiter(CONCURRENCY);
  // Recorded even when nothing is sent, so every invocation flushes a metric.
  metrics.addMetric('WebhookMessagesEnqueued', MetricUnit.Count, 0);
  const fanOutRecord = async (record: DynamoDBRecord): Promise<void> => {
    const envelope = envelopeOf(record);
    if (!envelope) return;
    try {
      await limit(() => fanOut(envelope, subsOf, now));
      // The team's notifications are derived here too, so every event producer feeds them (idempotent on replay).
      await limit(() => notifyFromEvent(envelope));
    } catch (err) {
      metrics.addMetric('FanoutFailures', MetricUnit.Count, 1);
      logger.error('fan-out failed', { orgId: envelope.organizationId, eventId: envelope.eventId, eventType: envelope.eventType, error: err });
      throw err;
    }
  };
  return processPartialResponse(event, fanOutRecord, processor, { context, throwOnFullBatchFailure: false });
});
