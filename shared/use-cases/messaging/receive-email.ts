/**
 * An inbound email (SES receipt rule → S3 → functions/inbound-email; locally, mail to the reply domain at the local
 * SMTP server takes the same path). It is threaded into the deal whose reply address (`reply+<token>@<domain>`) it
 * was sent to; its In-Reply-To (else References) names the message it answers when that is one of the deal's. The sender is matched
 * to the deal's contacts by address. Mail to no known reply address is dropped (`unrouted`); a redelivered email
 * (same Message-ID) is recorded once.
 */
import { randomUUID } from 'node:crypto';
import { parseInboundMail } from '#ports/inbound-mail-parser';
import { communicationPuts, findByProviderId, getCommunication, newCommunication, type Party } from '#db/communications';
import { findReplyRoute } from '#db/reply-addresses';
import { getDeal } from '#db/transactions';
import { transactWrite } from '#db/transact';
import { replyReceivedPut } from '#use-cases/messaging/reply-event';
import { NotFound } from '#domain/errors';
import { proposeDatesFrom } from '#use-cases/proposals';

export type InboundEmailOutcome = { outcome: 'threaded'; orgId: string; transactionId: string; messageId: string } | { outcome: 'unrouted' | 'duplicate' };

/** The token of a `reply+<token>@<domain>` address among `recipients`, for the inbound domain. */
export function replyTokenAmong(recipients: string[], domain: string): string | undefined {
  for (const r of recipients) {
    const m = /^reply\+([a-z2-7]{20})@(.+)$/i.exec(r.trim());
    if (m && m[2].toLowerCase() === domain.toLowerCase()) return m[1].toLowerCase();
  }
  return undefined;
}

/**
 * @param raw the message as received (RFC 5322 bytes)
 * @param envelopeRecipients the SMTP envelope's recipients (SES gives them; they include Bcc), besides To/Cc
 * @param domain the inbound mail domain
 */
export async function receiveEmail(raw: Buffer, envelopeRecipients: string[], domain: string, receivedAt: Date): Promise<InboundEmailOutcome> {
  const mail = await parseInboundMail(raw);
  const token = replyTokenAmong([...envelopeRecipients, ...mail.to.map((p) => p.address)], domain);
  const route = token ? await findReplyRoute(token) : undefined;
  if (!route) return { outcome: 'unrouted' };
  const providerMessageId = mail.messageId ?? `no-message-id-${randomUUID()}`;
  if (await findByProviderId('email-inbound', providerMessageId)) return { outcome: 'duplicate' };

  const deal = await getDeal(route.orgId, route.transactionId).catch((err) => (err instanceof NotFound ? undefined : Promise.reject(err)));
  if (!deal) return { outcome: 'unrouted' };
  const sender = mail.from ?? { address: '', name: null };
  const contact = deal.contacts.find((c) => c.email && c.email.toLowerCase() === sender.address.toLowerCase());
  const answered = await answeredMessage(route.orgId, deal.id, mail.answers);
  const message = newCommunication(
    {
      transactionId: deal.id,
      channel: 'email',
      direction: 'inbound',
      kind: 'reply',
      status: 'received',
      from: { address: sender.address, name: sender.name ?? contact?.name ?? null, contactId: contact?.contactId ?? null },
      to: mail.to.map((p): Party => ({ address: p.address, name: p.name, contactId: null })),
      subject: mail.subject,
      bodyText: mail.text,
      bodyHtml: mail.html,
      emailMessageId: mail.messageId,
      inReplyTo: answered,
      recipientRole: contact?.role ?? null,
      provider: 'email-inbound',
      providerMessageId,
      contactId: contact?.contactId ?? null,
    },
    receivedAt,
  );
  await transactWrite([...communicationPuts(route.orgId, message), replyReceivedPut(route.orgId, message, receivedAt)]);
  await proposeDatesFrom(route.orgId, { id: message.id, transactionId: deal.id, channel: 'email', text: mail.text, subject: mail.subject || null, from: sender.address, receivedAt }, receivedAt);
  return { outcome: 'threaded', orgId: route.orgId, transactionId: deal.id, messageId: message.id };
}

/**
 * Our id of the deal's message that `answers` (`<id@domain>` tokens of In-Reply-To, then References latest first;
 * RFC 5322 §3.6.4) name first, or null. References find the thread when a client drops In-Reply-To.
 */
async function answeredMessage(orgId: string, transactionId: string, answers: string[]): Promise<string | null> {
  for (const id of answers) {
    const m = /^<([0-9a-f-]{36})@/i.exec(id);
    if (!m) continue;
    const original = await getCommunication(orgId, m[1].toLowerCase()).catch((err) => (err instanceof NotFound ? undefined : Promise.reject(err)));
    if (original && original.transactionId === transactionId) return original.id;
  }
  return null;
}
