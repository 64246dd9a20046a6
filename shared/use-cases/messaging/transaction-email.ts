/**
 * `POST /transactions/{id}/messages`: an email on the deal from the fields as an integrator sends them (address lists
 * separated by commas or semicolons, text and/or HTML body, optional reply-to message and sender mailbox). Recipients
 * that are deal contacts are recognised by address. Email templates do not exist yet (issue #11), so a `templateId`
 * names nothing and is refused (422) rather than ignored.
 */
import { getDeal } from '#db/transactions';
import type { Communication } from '#db/communications';
import type { Actor } from '#events/outbox';
import { InvalidInput } from '#domain/errors';
import { parseRecipientFields, type RecipientFields } from '#domain/email-addresses';
import { partiesOf } from '#use-cases/messaging/deal-parties';
import { repliedMessage, queueDealEmail } from '#use-cases/messaging/send-email';

export interface TransactionEmailInput extends RecipientFields {
  subject?: string | null;
  body?: string | null;
  htmlBody?: string | null;
  fromAccountId?: string | null;
  replyToMessageId?: string | null;
  templateId?: string | null;
}

/** `Re: <subject>` unless it already is one (RFC 5322 §3.6.5). */
export const replySubject = (subject: string | null): string => (/^re:/i.test(subject ?? '') ? subject! : `Re: ${subject ?? ''}`.trim());

/**
 * Sends the email. A reply (`replyToMessageId`) defaults its recipient to the sender of the message it answers (or,
 * answering one of ours, to its recipients) and its subject to `Re: <subject>`.
 * @throws NotFound for a deal that is absent or another organization's
 * @throws InvalidInput for addresses, a missing subject or body, a `templateId`, a reply-to message of another deal
 * @throws Conflict when a recipient's address is suppressed
 */
export async function sendTransactionEmail(actor: Actor, transactionId: string, input: TransactionEmailInput, now: Date): Promise<Communication> {
  const deal = await getDeal(actor.orgId, transactionId);
  if (input.templateId) throw new InvalidInput({ templateId: 'names no email template: email templates are not available yet; send subject and body or htmlBody instead' });
  const original = input.replyToMessageId ? await repliedMessage(actor.orgId, deal.id, input.replyToMessageId) : null;
  const { to, cc, bcc, errors } = parseRecipientFields(input, !original);
  const fallbackTo = original ? (original.direction === 'inbound' ? [original.from.address] : original.to.map((p) => p.address)) : [];
  const subject = input.subject?.trim() || (original ? replySubject(original.subject) : '');
  if (!subject) errors.subject = 'is required';
  if (!input.body?.trim() && !input.htmlBody?.trim()) errors.body = 'is required: give body, htmlBody or both';
  if (Object.keys(errors).length) throw new InvalidInput(errors);
  return queueDealEmail(
    actor,
    {
      transactionId: deal.id,
      kind: 'email',
      to: partiesOf(deal, to.length ? to : fallbackTo.filter(Boolean)),
      cc: partiesOf(deal, cc),
      bcc: partiesOf(deal, bcc),
      subject,
      text: input.body?.trim() ? input.body : '',
      html: input.htmlBody?.trim() ? input.htmlBody : null,
      fromAccountId: input.fromAccountId,
      replyToMessageId: original?.id ?? null,
    },
    now,
  );
}
