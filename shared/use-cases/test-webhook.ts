/** A test delivery to one webhook subscription (`POST /webhooks/{id}/test`). */
import { getWebhook } from '#db/webhooks';
import { transactWrite } from '#db/transact';
import { outboxPut } from '#db/outbox';
import type { Actor } from '#events/outbox';

/**
 * Commits a `webhook.test` event for subscription `subscriptionId` only; it is delivered through the same outbox →
 * fan-out → queue path as every event.
 * @returns the subscription's id and the event's id
 * @throws NotFound when the subscription is absent or another organization's
 */
export async function sendTestEvent(actor: Actor, subscriptionId: string, now: Date): Promise<{ subscriptionId: string; eventId: string }> {
  const s = await getWebhook(actor.orgId, subscriptionId);
  const put = outboxPut(actor, 'webhook.test', { subscriptionId: s.id, message: 'Test delivery from the Transaction-Coordination Service.' }, now);
  await transactWrite([put]);
  return { subscriptionId: s.id, eventId: put.Put.Item.envelope.eventId };
}
