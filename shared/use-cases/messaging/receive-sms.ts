/**
 * An inbound text (AWS End User Messaging two-way SMS → SNS → functions/inbound-sms; locally `npm run sms -- reply`).
 * Keywords first (CTIA): STOP-type words opt the number out of every future text, START-type words opt it back in,
 * HELP gets the help text; the confirmation is sent by the service only when the carrier side does not answer
 * keywords itself. Then the text joins the conversation that last texted that number (keywords too, so the team
 * sees them). A text from a number nobody here texted is dropped (reported as `unrouted`).
 */
import { communicationPuts, findByProviderId, newCommunication } from '#db/communications';
import { conversationTouch, findSmsRoute, getConversation } from '#db/conversations';
import { optInSms, optOutSms } from '#db/consent';
import { transactWrite } from '#db/transact';
import { replyReceivedPut } from '#use-cases/messaging/reply-event';
import { smsSender } from '#ports/sms/transport';
import { HELP_REPLY, OPT_IN_REPLY, OPT_OUT_REPLY, smsKeyword } from '#domain/sms-keywords';
import { proposeDatesFrom } from '#use-cases/proposals';

/** A text as the provider reports it. */
export interface InboundSms {
  /** Sender, E.164. */
  from: string;
  /** The service's number it was sent to, E.164 (when known). */
  to: string | null;
  body: string;
  /** The provider's id of the inbound message (deduplicates redeliveries). */
  providerMessageId: string;
}

export type InboundSmsOutcome = 'threaded' | 'opted_out' | 'opted_in' | 'help' | 'unrouted' | 'duplicate';

/**
 * @param receivedAt when the provider received it
 * @returns what was done with it
 */
export async function receiveSms(sms: InboundSms, receivedAt: Date): Promise<InboundSmsOutcome> {
  const { toE164 } = await import('#domain/textable-phone');
  const from = toE164(sms.from) ?? sms.from;
  if (await findByProviderId('sms-inbound', sms.providerMessageId)) return 'duplicate';
  const route = await findSmsRoute(from);
  const keyword = smsKeyword(sms.body);
  let outcome: InboundSmsOutcome = 'unrouted';
  if (keyword?.kind === 'opt_out') (await optOutSms(from, keyword.keyword, route?.orgId ?? null, receivedAt), (outcome = 'opted_out'));
  if (keyword?.kind === 'opt_in') (await optInSms(from), (outcome = 'opted_in'));
  if (keyword?.kind === 'help') outcome = 'help';

  if (route) {
    const conversation = await getConversation(route.orgId, route.threadId);
    const message = newCommunication(
      {
        transactionId: conversation.transactionId,
        channel: 'sms',
        direction: 'inbound',
        kind: 'reply',
        status: 'received',
        statusDetail: keyword ? `keyword ${keyword.keyword}` : null,
        threadId: conversation.id,
        from: { address: from, name: conversation.name, contactId: conversation.contactId },
        to: [{ address: sms.to ?? '', name: null, contactId: null }],
        bodyText: sms.body,
        provider: 'sms-inbound',
        providerMessageId: sms.providerMessageId,
        contactId: conversation.contactId,
      },
      receivedAt,
    );
    // A keyword (STOP, HELP…) is consent handling, not a reply the team needs to hear about.
    await transactWrite([...communicationPuts(route.orgId, message), conversationTouch(route.orgId, conversation.id, message.createdAt, sms.body), ...(keyword ? [] : [replyReceivedPut(route.orgId, message, receivedAt)])]);
    if (!keyword) (outcome = 'threaded'), await proposeDatesFrom(route.orgId, { id: message.id, transactionId: conversation.transactionId, channel: 'sms', text: sms.body, from, receivedAt }, receivedAt);
  }

  if (keyword) {
    const sender = smsSender();
    if (!sender.answersKeywords) await sender.send({ to: from, body: keyword.kind === 'opt_out' ? OPT_OUT_REPLY : keyword.kind === 'opt_in' ? OPT_IN_REPLY : HELP_REPLY });
  }
  return outcome;
}
