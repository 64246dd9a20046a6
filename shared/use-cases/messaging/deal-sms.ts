/**
 * Texting on a deal through the API: the first text to a party (`POST /transactions/{id}/conversations`) and replies
 * in a conversation (`POST /conversations/{threadId}/messages`). Both go through `queueDealSms` (opt-outs, the
 * duplicate guard, the conversation per deal and number).
 */
import { getDeal } from '#db/transactions';
import { conversationView, getConversation, type Conversation } from '#db/conversations';
import { messageView, type Communication } from '#db/communications';
import type { Actor } from '#events/outbox';
import { InvalidInput } from '#domain/errors';
import { smsRecipient } from '#use-cases/messaging/deal-parties';
import { queueDealSms } from '#use-cases/messaging/send-sms';

/** A text's content and whether to lift the duplicate guard, as the API takes them. */
export interface TextInput {
  messageContent: string | null;
  forceOverride: boolean;
}

/** The response of a text sent: `{message, conversation}` as the API shows them. */
export const sentTextView = (sent: { message: Communication; conversation: Conversation }) => ({ message: messageView(sent.message), conversation: conversationView(sent.conversation) });

const contentOf = (input: TextInput): string => {
  if (!input.messageContent?.trim()) throw new InvalidInput({ messageContent: 'is required' });
  return input.messageContent;
};

/**
 * Sends the first text to a deal party: a linked contact (`contactId`) or a number (`toPhoneNumber`). Texting a number
 * the deal already has a conversation with continues that conversation.
 * @throws NotFound for a deal that is absent or another organization's
 * @throws InvalidInput for a missing text or recipient, a contact not linked to the deal, a number that cannot be texted
 * @throws Conflict when the number opted out, or the same text went to it within the duplicate window
 */
export async function startDealConversation(
  actor: Actor,
  transactionId: string,
  input: TextInput & { contactId: string | null; toPhoneNumber: string | null },
  now: Date,
): Promise<{ message: Communication; conversation: Conversation }> {
  const deal = await getDeal(actor.orgId, transactionId);
  const body = contentOf(input);
  const to = await smsRecipient(actor.orgId, deal, input);
  return queueDealSms(actor, { transactionId: deal.id, ...to, body, kind: 'sms', forceOverride: input.forceOverride, contactId: to.contactId, name: to.name }, now);
}

/**
 * Sends a text in an existing conversation.
 * @throws NotFound for a conversation that is absent or another organization's
 * @throws InvalidInput for a missing text
 * @throws Conflict when the number opted out, or the same text went to it within the duplicate window
 */
export async function replyInConversation(actor: Actor, threadId: string, input: TextInput, now: Date): Promise<{ message: Communication; conversation: Conversation }> {
  const c = await getConversation(actor.orgId, threadId);
  const body = contentOf(input);
  return queueDealSms(
    actor,
    { transactionId: c.transactionId, phone: c.phone, phoneField: 'threadId', body, kind: 'sms', forceOverride: input.forceOverride, contactId: c.contactId, name: c.name },
    now,
  );
}
