/**
 * Sending a text on a deal (spec "Messaging": first SMS, replies, documents shared by link). The number is
 * normalised to E.164; a number that opted out (STOP) is never texted, `forceOverride` or not. `forceOverride`
 * only lifts the duplicate guard: the same text to the same number within `DUPLICATE_WINDOW_MINUTES` is refused
 * as an accidental double send. The text joins the deal's conversation with that number (created on first use)
 * and is recorded `queued` with its `message.queued` event; the send worker (shared/use-cases/messaging/
 * deliver-message.ts) texts it and marks it `sent` or `failed`.
 */
import { randomUUID } from 'node:crypto';
import { getTransactionHead } from '#db/transactions';
import { listThreadMessages, newCommunication, type Communication, type MessageDocument, type MessageKind } from '#db/communications';
import { conversationPuts, conversationTouch, findConversation, preview, setSmsRoute, type Conversation } from '#db/conversations';
import { findSmsOptOut } from '#db/consent';
import { transactWrite } from '#db/transact';
import type { SmsSend } from '#db/outbound-sends';
import type { Actor } from '#events/outbox';
import { Conflict, InvalidInput } from '#domain/errors';
import { queuedMessageItems } from '#use-cases/messaging/queue-message';

/** Minutes within which the same text to the same number is refused unless `forceOverride`. */
export const DUPLICATE_WINDOW_MINUTES = 10;

export interface SmsRequest {
  transactionId: string;
  /** The number as given (any common format; US assumed without a country code). */
  phone: string;
  /** The field the number came from, for error messages (`toPhoneNumber`, `contactId`). */
  phoneField: string;
  /** The text as sent. */
  body: string;
  /**
   * The text as the thread records it, when that must differ from what is sent: a share link's token is elided
   * (only its hash is stored; the link lives on the recipient's phone). Default: `body`.
   */
  threadBody?: string;
  kind: MessageKind;
  forceOverride: boolean;
  contactId: string | null;
  /** The other party's display name (the contact's), for a new conversation. */
  name: string | null;
  documents?: MessageDocument[];
  /** What the message is for (see `Communication.context`). */
  context?: Record<string, unknown> | null;
}

/**
 * The number in E.164 when it can be texted now.
 * @param phone any common format (US assumed without a country code)
 * @param field the request field it came from, for the error
 * @throws InvalidInput when the number cannot receive texts
 * @throws Conflict when the number opted out (STOP); nothing lifts that but its START
 */
export async function textableNumber(phone: string, field: string): Promise<string> {
  // Loaded on first use (a chunk beside the messaging bundle: lib/bundling/lazy-modules.ts).
  const { toE164 } = await import('#domain/textable-phone');
  const e164 = toE164(phone);
  if (!e164) throw new InvalidInput({ [field]: 'is not a number that can receive texts (E.164, or a US number)' });
  const optOut = await findSmsOptOut(e164);
  if (optOut) throw new Conflict(`${e164} opted out of texts (${optOut.keyword} on ${optOut.optedOutAt.slice(0, 10)}); it is never texted until it texts START.`);
  return e164;
}

/**
 * Checks the text and queues it: the `queued` message (in its conversation) with its send and `message.queued` event
 * in one transaction; the send worker texts it and marks it `sent` or `failed`.
 * @returns the recorded message (`queued`) and its conversation
 * @throws NotFound for a deal that is absent or another organization's
 * @throws InvalidInput when the number cannot receive texts
 * @throws Conflict when the number opted out, or the same text went to it within the duplicate window
 */
export async function queueDealSms(actor: Actor, req: SmsRequest, now: Date): Promise<{ message: Communication; conversation: Conversation }> {
  const recorded = req.threadBody ?? req.body;
  const deal = await getTransactionHead(actor.orgId, req.transactionId);
  const phone = await textableNumber(req.phone, req.phoneField);

  let conversation = await findConversation(actor.orgId, deal.id, phone);
  if (conversation && !req.forceOverride) {
    const since = now.getTime() - DUPLICATE_WINDOW_MINUTES * 60_000;
    const recent = await listThreadMessages(actor.orgId, conversation.id, 10);
    if (recent.some((m) => m.direction === 'outbound' && m.bodyText === recorded && Date.parse(m.createdAt) >= since && m.status !== 'failed')) {
      throw new Conflict(`The same text went to ${phone} less than ${DUPLICATE_WINDOW_MINUTES} minutes ago; send again with forceOverride: true to repeat it.`);
    }
  }
  const created = !conversation;
  // A new conversation is written with its first message counted (one transaction cannot put and update an item).
  conversation ??= { id: randomUUID(), transactionId: deal.id, phone, contactId: req.contactId, name: req.name, lastMessageAt: now.toISOString(), lastMessagePreview: preview(recorded), messageCount: 1, createdAt: now.toISOString() };

  const message = newCommunication(
    {
      transactionId: deal.id,
      channel: 'sms',
      direction: 'outbound',
      kind: req.kind,
      status: 'queued',
      threadId: conversation.id,
      from: { address: '', name: null, contactId: null },
      to: [{ address: phone, name: req.name, contactId: req.contactId }],
      bodyText: recorded,
      documents: req.documents ?? [],
      context: req.context ?? null,
      contactId: req.contactId ?? conversation.contactId,
      sentBy: actor.userId,
    },
    now,
  );
  const sms: SmsSend = { channel: 'sms', to: phone, body: req.body };
  await transactWrite([...(created ? conversationPuts(actor.orgId, conversation) : [conversationTouch(actor.orgId, conversation.id, message.createdAt, recorded)]), ...queuedMessageItems(actor, message, sms, null, now)]);
  await setSmsRoute(phone, actor.orgId, conversation.id, deal.id, now);
  const touched = created ? conversation : { ...conversation, lastMessageAt: message.createdAt, lastMessagePreview: preview(recorded), messageCount: conversation.messageCount + 1 };
  return { message, conversation: touched };
}
