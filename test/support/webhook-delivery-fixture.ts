/**
 * A failed webhook delivery written through the repository (shared/db/webhook-deliveries.ts), for suites whose
 * runtime runs no delivery worker (isolation, fuzz): one pending delivery with its body, then one final attempt
 * that failed with a 503.
 */
import { randomUUID } from 'node:crypto';
import { claimDelivery, recordAttempt } from '#db/webhook-deliveries';

/** @returns the delivery's id (its event's id: a first delivery) */
export async function failedDelivery(orgId: string, subscriptionId: string, now = new Date()): Promise<string> {
  const eventId = randomUUID();
  const envelope = { eventType: 'contact.created', eventId, timestamp: now.toISOString(), organizationId: orgId, userId: null, data: { contactId: randomUUID() } };
  await claimDelivery({ orgId, subscriptionId, eventId, eventType: envelope.eventType, payload: JSON.stringify(envelope) }, now);
  await recordAttempt(orgId, { subscriptionId, eventId, eventType: envelope.eventType, attempt: 1, attemptedAt: now.toISOString(), ok: false, statusCode: 503, latencyMs: 12, error: 'HTTP 503', nextRetryAt: null, outcome: 'failed' }, now);
  return eventId;
}
