/**
 * Outbox fan-out: what one committed event becomes, in two steps that fail apart.
 * 1. **Webhook deliveries**: an internal event (shared/events/catalog.ts `webhook: false`) is dropped before any
 *    read; otherwise one SQS message per matching active subscription of its organization (`webhook.test` only to
 *    the subscription it names), each delivery claimed first so a replayed record skips deliveries that finished.
 *    The messages of all the events of a stream batch share `SendMessageBatch` calls (shared/use-cases/delivery-sends.ts).
 *    A failure throws: the stream retries the record, and the retry re-enqueues only still-pending deliveries.
 * 2. **Notifications** (shared/use-cases/notify.ts): the team's notifications and their pushes. A failure is logged
 *    and counted, never thrown, so a failed push or notification write never makes the stream retry the record
 *    (which would re-enqueue its pending webhook deliveries). Runs beside step 1, so also when step 1 fails (it is
 *    idempotent).
 *
 * Webhooks promise no order between events (spec "Webhooks": receivers deduplicate on the event id), so the events
 * of a batch are fanned out concurrently.
 *
 * Metrics (Count; dimension `service` only): `WebhookMessagesEnqueued` (delivery messages sent to the queue),
 * `FanoutFailures` (events whose deliveries failed: the record is retried), `NotificationFailures` (failed pushes,
 * and events whose notifications could not be stored: not retried, logged with the event id).
 */
import pLimit from 'p-limit';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { listWebhooks, wantsEvent, type WebhookSubscription } from '#db/webhooks';
import { claimDelivery, type DeliveryMessage } from '#db/webhook-deliveries';
import { isInternalEvent } from '#events/catalog';
import type { EventEnvelope } from '#events/outbox';
import { logger, metricSet } from '#observability/powertools';
import { notifyFromEvent } from '#use-cases/notify';
import { redeliveryMessages } from '#use-cases/redeliver-webhook';
import { deliverySends } from '#use-cases/delivery-sends';

export const FANOUT_METRICS = metricSet(['WebhookMessagesEnqueued', 'FanoutFailures', 'NotificationFailures']);

/** An organization's webhook subscriptions. */
export type SubscriptionsOf = (orgId: string) => Promise<WebhookSubscription[]>;

/** Subscriptions of `subs` that receive `envelope` (none for an internal event). */
export function recipients(subs: WebhookSubscription[], envelope: EventEnvelope): WebhookSubscription[] {
  if (isInternalEvent(envelope.eventType)) return [];
  if (envelope.eventType === 'webhook.test') return subs.filter((s) => s.id === envelope.data.subscriptionId);
  return subs.filter((s) => s.isActive && wantsEvent(s, envelope.eventType));
}

/** Runs a task now or once a slot is free (a `p-limit` limiter). */
type Limit = <T>(run: () => Promise<T>) => Promise<T>;

/**
 * Step 1's reads and claims: the delivery messages of one event, each delivery claimed first (shared/db/webhook-deliveries.ts
 * `claimDelivery`); deliveries that already finished are left out, pending ones are sent again.
 * @param limit runs each claim (default: at once)
 * @returns the messages to send (none for an internal event)
 * @throws when the subscriptions cannot be read or a claim fails
 */
export async function deliveriesOf(envelope: EventEnvelope, subscriptionsOf: SubscriptionsOf, now: Date, limit: Limit = (run) => run()): Promise<DeliveryMessage[]> {
  // Internal, but it names redeliveries committed pending (shared/use-cases/redeliver-webhook.ts): no subscription read.
  if (envelope.eventType === 'webhook.redelivery_requested') return redeliveryMessages(envelope);
  if (isInternalEvent(envelope.eventType)) return [];
  const payload = JSON.stringify(envelope);
  const claimed = await Promise.all(
    recipients(await subscriptionsOf(envelope.organizationId), envelope).map((s) =>
      limit(async () => {
        const m: DeliveryMessage = { orgId: envelope.organizationId, subscriptionId: s.id, eventId: envelope.eventId, eventType: envelope.eventType, payload };
        const state = await claimDelivery(m, now);
        return state === 'new' || state === 'pending' ? m : undefined;
      }),
    ),
  );
  return claimed.filter((m) => m !== undefined);
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

/**
 * Conditional claims (PutItem) in flight at once across the events of one batch: the SDK's default socket pool
 * (`maxSockets` 50 of @smithy/node-http-handler); more would only queue for a socket. A shard's next batch waits for
 * this one, so the claims' round trips set the stream's pace: 100 events to one subscription claim in 2 rounds, not 7.
 */
const CLAIM_CONCURRENCY = 50;
/** Events whose notifications are written at once. */
const NOTIFY_CONCURRENCY = 8;

/**
 * The fan-out of one batch of outbox records: returns the function that fans out one event (undefined: a record
 * that is no outbox event, ignored). Call it once per record of the batch, all records at once (Powertools'
 * `BatchProcessor` does): subscriptions are read once per organization per batch, and the events' delivery messages
 * are sent together, 10 per `SendMessageBatch`.
 * @throws (the returned function) when the event's deliveries failed; notifications never throw
 */
export function fanOutBatch(now: Date): (envelope: EventEnvelope | undefined) => Promise<void> {
  const cache = new Map<string, Promise<WebhookSubscription[]>>();
  const subscriptionsOf: SubscriptionsOf = (orgId) => {
    if (!cache.has(orgId)) cache.set(orgId, listWebhooks(orgId));
    return cache.get(orgId)!;
  };
  const claims: Limit = pLimit(CLAIM_CONCURRENCY);
  const notifications: Limit = pLimit(NOTIFY_CONCURRENCY);
  const sends = deliverySends((accepted) => FANOUT_METRICS.add('WebhookMessagesEnqueued', MetricUnit.Count, accepted));
  // Recorded even when nothing is sent, so every invocation flushes a metric.
  FANOUT_METRICS.add('WebhookMessagesEnqueued', MetricUnit.Count, 0);
  return async (envelope) => {
    if (!envelope) return;
    // The two steps run side by side: neither waits for the other's round trips.
    const [deliveries] = await Promise.all([
      sends.send(() => deliveriesOf(envelope, subscriptionsOf, now, claims)).then(
        () => undefined,
        (err: unknown) => ({ err }),
      ),
      notifications(() => notifyQuietly(envelope)),
    ]);
    if (!deliveries) return;
    FANOUT_METRICS.add('FanoutFailures', MetricUnit.Count, 1);
    logger.error('fan-out failed', { orgId: envelope.organizationId, eventId: envelope.eventId, eventType: envelope.eventType, error: deliveries.err });
    throw deliveries.err;
  };
}
