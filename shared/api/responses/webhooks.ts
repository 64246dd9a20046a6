/** Response schemas of webhook subscriptions and deliveries (spec "Webhook subscription", "Delivery"). */
import * as z from '#api/zod';
import { id, nullableString, resource, timestamp } from '#api/responses/common';

const subscriptionShape = {
  id: id(),
  name: z.string(),
  url: z.string(),
  /** Event types, or `*` for all. */
  events: z.array(z.string()),
  description: nullableString(),
  headers: z.record(z.string(), z.string()),
  isActive: z.boolean(),
  circuitBreakerEnabled: z.boolean(),
  timeoutSeconds: z.int(),
  consecutiveFailures: z.int(),
  pausedAt: z.nullable(timestamp()),
  pausedReason: z.nullable(z.literal('circuit_breaker')),
  createdAt: timestamp(),
  updatedAt: timestamp(),
  /** The signing secret masked: a prefix only. */
  secretPrefix: z.string(),
};

export const WebhookSubscription = resource(
  'WebhookSubscription',
  'A webhook subscription; reads show only a masked prefix of the signing secret.',
  z.object(subscriptionShape),
);

export const WebhookSubscriptionWithSecret = resource(
  'WebhookSubscriptionWithSecret',
  'A webhook subscription as created or rotated: the full signing secret, shown this once.',
  z.object({ ...subscriptionShape, secret: z.string() }),
);

export const DeliveryAttempt = resource(
  'DeliveryAttempt',
  'One delivery attempt: HTTP status, latency (ms), error and when the next retry is due. `deliveryId` is the event id for its first delivery and a new id for a redelivery, which names the delivery it re-sends in `redeliveryOf`.',
  z.object({
    subscriptionId: id(),
    deliveryId: z.string(),
    redeliveryOf: nullableString(),
    eventId: z.string(),
    eventType: z.string(),
    attempt: z.int(),
    attemptedAt: timestamp(),
    ok: z.boolean(),
    statusCode: z.nullable(z.int()),
    latencyMs: z.nullable(z.number()),
    error: nullableString(),
    nextRetryAt: z.nullable(timestamp()),
    outcome: z.string(),
  }),
);

export const Redelivery = resource(
  'Redelivery',
  'A redelivery queued: a new delivery of the same event and body, with its own attempt count.',
  z.object({ deliveryId: id(), redeliveryOf: z.string(), eventId: z.string(), eventType: z.string() }),
);
