/**
 * The internal outbox event of an inbound reply threaded to a deal (`message.received`): the team's notification
 * (shared/domain/notifications.ts) is made from it in fan-out; webhooks never deliver it (shared/events/catalog.ts).
 */
import type { Communication } from '#db/communications';
import { outboxPut } from '#db/outbox';

/** The outbox `Put` for the reply `m` of organization `orgId`, written in the transaction that stores `m`. */
export function replyReceivedPut(orgId: string, m: Communication, receivedAt: Date) {
  return outboxPut(
    { orgId, userId: null },
    'message.received',
    { transactionId: m.transactionId, communicationId: m.id, channel: m.channel, from: m.from.address, fromName: m.from.name, subject: m.subject ?? null },
    receivedAt,
  );
}
