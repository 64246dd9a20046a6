/**
 * Outbox fan-out: what one committed event becomes, in two steps that fail apart.
 * 1. **Webhook deliveries**: an internal event (shared/events/catalog.ts `webhook: false`) is dropped before any
 *    read; otherwise one SQS message per matching active subscription of its organization (`webhook.test` only to
 *    the subscription it names), each delivery claimed first so a replayed record skips deliveries that finished.
 *    A failure throws: the stream retries the record, and the retry re-enqueues only still-pending deliveries.
 * 2. **Notifications** (shared/use-cases/notify.ts): the team's notifications and their pushes. A failure is logged
 *    and counted, never thrown, so a failed push or notification write never makes the stream retry the record
 *    (which would re-enqueue its pending webhook deliveries). Runs even when step 1 failed (it is idempotent).
 *
 * Metrics (Count; dimension `service` only): `WebhookMessagesEnqueued` (delivery messages sent to the queue),
 * `FanoutFailures` (events whose deliveries failed: the record is retried), `NotificationFailures` (failed pushes,
 * and events whose notifications could not be stored: not retried, logged with the event id).
 */
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { listWebhooks, wantsEvent, type WebhookSubscription } from '#db/webhooks';
import { claimDelivery, type DeliveryMessage } from '#db/webhook-deliveries';
import { isInternalEvent } from '#events/catalog';
import type { EventEnvelope } from '#events/outbox';
import { sqs, webhookQueueUrl } from '#ports/sqs';
import { logger, metricSet } from '#observability/powertools';
import { notifyFromEvent } from '#use-cases/notify';
import { redeliveryMessages } from '#use-cases/redeliver-webhook';

export const FANOUT_METRICS = metricSet(['WebhookMessagesEnqueued', 'FanoutFailures', 'NotificationFailures']);

/** An organization's webhook subscriptions. */
export type SubscriptionsOf = (orgId: string) => Promise<WebhookSubscription[]>;

/** Subscriptions of `subs` that receive `envelope` (none for an internal event). */
export function recipients(subs: WebhookSubscription[], envelope: EventEnvelope): WebhookSubscription[] {
  if (isInternalEvent(envelope.eventType)) return [];
  if (envelope.eventType === 'webhook.test') return subs.filter((s) => s.id === envelope.data.subscriptionId);
  return subs.filter((s) => s.isActive && wantsEvent(s, envelope.eventType));
}

/**
 * Step 1: claims and enqueues the event's webhook deliveries (SQS batches of 10).
 * @returns how many delivery messages were sent
 * @throws when a claim or a send fails (SQS refusing entries included)
 */
export async function enqueueDeliveries(envelope: EventEnvelope, subscriptionsOf: SubscriptionsOf, now: Date): Promise<number> {
  // Internal, but it names redeliveries committed pending (shared/use-cases/redeliver-webhook.ts): no subscription read.
  if (envelope.eventType === 'webhook.redelivery_requested') return sendDeliveries(await redeliveryMessages(envelope));
  if (isInternalEvent(envelope.eventType)) return 0;
  const payload = JSON.stringify(envelope);
  const messages: DeliveryMessage[] = [];
  for (const s of recipients(await subscriptionsOf(envelope.organizationId), envelope)) {
    const m: DeliveryMessage = { orgId: envelope.organizationId, subscriptionId: s.id, eventId: envelope.eventId, eventType: envelope.eventType, payload };
    const state = await claimDelivery(m, now);
    if (state === 'new' || state === 'pending') messages.push(m);
  }
  return sendDeliveries(messages);
}

/** Sends delivery messages to the queue in batches of 10. @returns how many @throws when SQS refuses an entry */
async function sendDeliveries(messages: DeliveryMessage[]): Promise<number> {
  for (let i = 0; i < messages.length; i += 10) {
    const chunk = messages.slice(i, i + 10);
    const out = await sqs().send(new SendMessageBatchCommand({ QueueUrl: webhookQueueUrl(), Entries: chunk.map((m, j) => ({ Id: String(j), MessageBody: JSON.stringify(m) })) }));
    if (out.Failed?.length) throw new Error(`SQS refused ${out.Failed.length} delivery messages`);
    FANOUT_METRICS.add('WebhookMessagesEnqueued', MetricUnit.Count, chunk.length);
  }
  return messages.length;
}

/** Step 2: the event's notifications; never throws (failures are counted and logged). */
export async function notifyQuietly(envelope: EventEnvelope): Promise<void> {
  try {
    const { failedPushes } = await notifyFromEvent(envelope);
    if (failedPushes) FANOUT_METRICS.add('NotificationFailures', MetricUnit.Count, failedPushes);
  } catch (err) {
    FANOUT_METRICS.add('NotificationFailures', MetricUnit.Count, 1);
    logger.error('notifications failed', { orgId: envelope.organizationId, eventId: envelope.eventId, eventType: envelope.eventType, error: err });
  }
}

/** Events fanned out at once: their claims and sends overlap (a batch processor starts every record at once). */
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

/**
 * The fan-out of one batch of outbox records: returns the function that fans out one event (undefined: a record
 * that is no outbox event, ignored). Subscriptions are read once per organization per batch.
 * @throws (the returned function) when the event's deliveries failed; notifications never throw
 */
export function fanOutBatch(now: Date): (envelope: EventEnvelope | undefined) => Promise<void> {
  const cache = new Map<string, Promise<WebhookSubscription[]>>();
  const subscriptionsOf: SubscriptionsOf = (orgId) => {
    if (!cache.has(orgId)) cache.set(orgId, listWebhooks(orgId));
    return cache.get(orgId)!;
  };
  const limit = limiter(CONCURRENCY);
  // Recorded even when nothing is sent, so every invocation flushes a metric.
  FANOUT_METRICS.add('WebhookMessagesEnqueued', MetricUnit.Count, 0);
  return async (envelope) => {
    if (!envelope) return;
    const deliveries = await limit(() => enqueueDeliveries(envelope, subscriptionsOf, now)).then(
      () => undefined,
      (err: unknown) => ({ err }),
    );
    await limit(() => notifyQuietly(envelope));
    if (!deliveries) return;
    FANOUT_METRICS.add('FanoutFailures', MetricUnit.Count, 1);
    logger.error('fan-out failed', { orgId: envelope.organizationId, eventId: envelope.eventId, eventType: envelope.eventType, error: deliveries.err });
    throw deliveries.err;
  };
}
