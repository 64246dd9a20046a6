/**
 * Queuing an outbound message (issue 24, "sends leave the request path"): the `queued` message, its send (what the
 * send worker hands to the provider: shared/db/outbound-sends.ts) and its `message.queued` outbox event are one
 * transaction, so a message is in the thread if and only if the worker will be asked to send it. The worker is
 * functions/message-send/handler.ts with shared/use-cases/messaging/deliver-message.ts.
 */
import { communicationPuts, type Communication } from '#db/communications';
import { outboundSendPut, type EmailSend, type SmsSend } from '#db/outbound-sends';
import { outboxPut } from '#db/outbox';
import type { TransactItem } from '#db/transact';
import type { Actor } from '#events/outbox';

/**
 * The writes that queue `message` (status `queued`, channel `email` or `sms`) for sending `payload`.
 * @param scheduledMessageId the scheduled message the send completes (the worker marks it sent or failed), or null
 */
export function queuedMessageItems(actor: Actor, message: Communication, payload: EmailSend | SmsSend, scheduledMessageId: string | null, now: Date): TransactItem[] {
  return [
    ...communicationPuts(actor.orgId, message),
    outboundSendPut({ orgId: actor.orgId, messageId: message.id, transactionId: message.transactionId, messageCreatedAt: message.createdAt, payload, scheduledMessageId, sentBy: actor.userId }),
    outboxPut(actor, 'message.queued', { transactionId: message.transactionId, communicationId: message.id, channel: payload.channel, scheduledMessageId }, now),
  ];
}
