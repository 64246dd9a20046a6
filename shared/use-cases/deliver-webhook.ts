/**
 * Delivering one webhook message (spec "Webhooks", "Delivery"): re-read the subscription, once per SQS batch
 * (dropped if deleted, paused or no longer subscribed), sign the exact payload bytes with the CURRENT secret, POST with the spec's headers and
 * the subscription's timeout, record the attempt. 2xx is success. On failure the message's visibility is set to the
 * next retry delay (shared/events/retry-schedule.ts) so SQS redelivers it then; after the last attempt the queue's
 * redrive policy moves it to the dead-letter queue. Consecutive failures trip the circuit breaker, which pauses the
 * subscription; the breaker counts the batch's results of a subscription in one write (shared/use-cases/delivery-breaker.ts).
 * The attempt number is SQS's receive count.
 * Metrics (Count, one per message): `DeliveriesSucceeded`, `DeliveriesFailed` (an attempt that failed, retried or
 * final), `DeliveriesDropped` (not attempted), `DeliveryErrors` (unexpected errors, counted by the worker) and
 * `BreakerTrips`.
 */
import type { SQSRecord } from 'aws-lambda';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { wantsEvent } from '#db/webhooks';
import type { DeliveryAttempt, DeliveryMessage } from '#db/webhook-deliveries';
import { signWebhookBody } from '#events/signing';
import { postWebhook } from '#events/webhook-transport';
import { retryDelaySeconds } from '#events/retry-schedule';
import { NotFound } from '#domain/errors';
import { logger, metricSet, type MetricNameOf } from '#observability/powertools';
import { deliveryBatch, type DeliveryBatch, type RetryLater } from '#use-cases/delivery-batch';

/** Headers a subscription's custom `headers` may not override. */
const RESERVED = new Set([
  'content-type', 'content-length', 'host', 'user-agent', 'x-webhook-signature', 'x-webhook-event-type', 'x-webhook-event-id', 'x-webhook-timestamp',
  // Hop-by-hop and framing headers (RFC 9110 §7.6.1) would break the request itself.
  'connection', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'expect', 'proxy-authorization', 'proxy-connection',
]);

/** The request headers of one attempt (spec "Delivery"). @param sentAt ISO 8601 send time */
export function deliveryHeaders(m: DeliveryMessage, secret: string, custom: Record<string, string>, sentAt: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(custom)) if (!RESERVED.has(k.toLowerCase())) headers[k] = v;
  return {
    ...headers,
    'content-type': 'application/json',
    'user-agent': 'transaction-coordination-webhooks/1',
    'x-webhook-signature': signWebhookBody(secret, m.payload),
    'x-webhook-event-type': m.eventType,
    'x-webhook-event-id': m.eventId,
    'x-webhook-timestamp': sentAt,
  };
}

/** The worker's metrics (Count, one per message; dimension `service` only). */
export const DELIVERY_METRICS = metricSet(['DeliveriesSucceeded', 'DeliveriesFailed', 'DeliveriesDropped', 'DeliveryErrors', 'BreakerTrips']);

/** Adds 1 to the invocation's `name` metric. */
export const countDelivery = (name: MetricNameOf<typeof DELIVERY_METRICS>): void => {
  DELIVERY_METRICS.add(name, MetricUnit.Count, 1);
};

/**
 * Delivers one message and counts its outcome.
 * @param batch what the messages of one invocation share (shared/use-cases/delivery-batch.ts); default: this one alone
 * @returns true when SQS should redeliver it later
 */
export async function deliver(record: SQSRecord, now = () => new Date(), batch: DeliveryBatch = deliveryBatch(1)): Promise<boolean> {
  const recorded = { yes: false, counted: false };
  try {
    return await attemptDelivery(record, now, batch, recorded);
  } finally {
    if (!recorded.counted) batch.uncounted();
    if (!recorded.yes) batch.release();
  }
}

/** `recorded`: whether the message has recorded its attempt (`yes`) and counted it on the breaker, or said it will not (`counted`). */
async function attemptDelivery(record: SQSRecord, now: () => Date, batch: DeliveryBatch, recorded: { yes: boolean; counted: boolean }): Promise<boolean> {
  const m = JSON.parse(record.body) as DeliveryMessage;
  // SQS's receive count is the attempt number: the redrive policy dead-letters the message after the last one.
  const attempt = Number(record.attributes.ApproximateReceiveCount ?? 1);
  // A redelivery records its attempts on its own delivery (shared/use-cases/redeliver-webhook.ts).
  const redelivery = m.deliveryId ? { deliveryId: m.deliveryId, redeliveryOf: m.redeliveryOf ?? null } : {};
  const base = { subscriptionId: m.subscriptionId, ...redelivery, eventId: m.eventId, eventType: m.eventType, attempt };
  let sub;
  try {
    sub = await batch.subscription(m.orgId, m.subscriptionId);
  } catch (err) {
    if (err instanceof NotFound) {
      countDelivery('DeliveriesDropped'); // subscription deleted: nothing to deliver to
      return false;
    }
    throw err;
  }
  const started = now();
  const recordAttempt = (a: DeliveryAttempt, retry?: RetryLater) => ((recorded.yes = true), batch.recordAttempt(m.orgId, a, started, retry));
  const count = (ok: boolean) => ((recorded.counted = true), batch.count(m.orgId, sub.id, ok, started));
  if (!sub.isActive || (m.eventType !== 'webhook.test' && !wantsEvent(sub, m.eventType))) {
    // Before the attempt waits for the batch: the breaker's write must not wait for this message.
    recorded.counted = true;
    batch.uncounted();
    const reason = sub.pausedReason === 'circuit_breaker' ? 'subscription paused by the circuit breaker' : !sub.isActive ? 'subscription inactive' : 'event type no longer subscribed';
    await recordAttempt({ ...base, attemptedAt: started.toISOString(), ok: false, statusCode: null, latencyMs: null, error: reason, nextRetryAt: null, outcome: 'dropped' });
    countDelivery('DeliveriesDropped');
    return false;
  }
  const sentAt = started.toISOString();
  const result = await postWebhook(sub.url, m.payload, deliveryHeaders(m, sub.secret, sub.headers, sentAt), sub.timeoutSeconds * 1000);
  if (result.ok) {
    const stored = recordAttempt({ ...base, attemptedAt: sentAt, ok: true, statusCode: result.statusCode, latencyMs: result.latencyMs, error: null, nextRetryAt: null, outcome: 'succeeded' });
    // The breaker's clear goes beside the attempt items' write, once the batch's results are counted.
    const reset = count(true);
    const failed = (await Promise.allSettled([stored, reset])).find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    countDelivery('DeliveriesSucceeded');
    return false;
  }
  const delay = retryDelaySeconds(attempt);
  const counted = count(false);
  // A disabled breaker never trips (its count is only shown), so the attempt need not wait for the count's write.
  // Were it enabled meanwhile and tripped, the retry is dropped on its next receive.
  const breaker = sub.circuitBreakerEnabled ? await counted : 'counted';
  const tripped = breaker !== 'counted';
  const retrying = delay !== null && !tripped;
  const a: DeliveryAttempt = {
    ...base, attemptedAt: sentAt, ok: false, statusCode: result.statusCode, latencyMs: result.latencyMs, error: result.error,
    nextRetryAt: retrying ? new Date(started.getTime() + delay * 1000).toISOString() : null,
    outcome: retrying ? 'retrying' : tripped ? 'dropped' : 'failed',
  };
  // Retried after its delay; the last attempt is visible again at once, so the next receive exceeds maxReceiveCount
  // and SQS dead-letters it.
  const stored = recordAttempt(a, tripped ? undefined : { receiptHandle: record.receiptHandle, visibilitySeconds: delay ?? 0 });
  const failed = (await Promise.allSettled([stored, counted])).find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  countDelivery('DeliveriesFailed');
  if ((await counted) === 'tripped') {
    countDelivery('BreakerTrips');
    logger.warn('circuit breaker paused a webhook subscription', { orgId: m.orgId, subscriptionId: sub.id, eventId: m.eventId });
  }
  return !tripped;
}
