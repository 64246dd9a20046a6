/**
 * Sharing a deal document by secure, expiring link over SMS: to a deal party (`POST /transactions/{id}/documents/
 * {documentId}/share`) or into a conversation (`POST /conversations/{threadId}/documents`). A new link is made per
 * share (its token is random; only its hash is stored) and stored before the text is sent, so a text never carries a
 * link that does not work (the number is checked first, so a refused share stores no link); the thread records the text with the token elided. Every share sends a new link, so the
 * duplicate-text guard does not apply; `Idempotency-Key` makes a retry safe.
 */
import { getDeal, getTransactionHead, type Transaction } from '#db/transactions';
import { getConversation, type Conversation } from '#db/conversations';
import { findDocument, type DocumentRecord } from '#db/documents';
import { createShareLink, newLinkToken } from '#db/share-links';
import type { Communication } from '#db/communications';
import type { Actor } from '#events/outbox';
import { Conflict, InvalidInput, NotFound } from '#domain/errors';
import { DEFAULT_LINK_HOURS, elideToken, shareText } from '#domain/document-share';
import { MAX_SMS_CHARS } from '#domain/sms-text';
import { smsRecipient, type SmsRecipient } from '#use-cases/messaging/deal-parties';
import { queueDealSms, textableNumber } from '#use-cases/messaging/send-sms';
import { sentTextView } from '#use-cases/messaging/deal-sms';

/** What a share returns: the text as recorded, its conversation, and the link's facts (never its token). */
export interface ShareResult {
  message: Communication;
  conversation: Conversation;
  link: { documentId: string; fileName: string; expiresAt: string; expirationHours: number };
}

/** The response of a share: `{message, conversation, link}` as the API shows them. */
export const shareView = (shared: ShareResult) => ({ ...sentTextView(shared), link: shared.link });

/** How long and with what words, as the API takes them. */
export interface ShareOptions {
  expirationHours: number | null;
  message: string | null;
  /** Origin of the public link (`publicBaseUrl`). */
  baseUrl: string;
}

async function sendLink(actor: Actor, deal: Transaction, doc: DocumentRecord, to: SmsRecipient, opts: ShareOptions, now: Date): Promise<ShareResult> {
  if (doc.uploadState !== 'uploaded') throw new Conflict(`Document ${doc.id} has no stored file yet (upload state: ${doc.uploadState}); share it once it is uploaded.`);
  const hours = opts.expirationHours ?? DEFAULT_LINK_HOURS;
  const token = newLinkToken();
  const body = shareText({ message: opts.message, fileName: doc.name, address: deal.address, url: `${opts.baseUrl}/l/${token}`, hours });
  if (body.length > MAX_SMS_CHARS) throw new InvalidInput({ message: `is too long: with the link the text must be at most ${MAX_SMS_CHARS} characters` });
  // Checked before the link is stored, so a refused share leaves nothing behind.
  await textableNumber(to.phone, to.phoneField);
  const expiresAt = new Date(now.getTime() + hours * 3_600_000).toISOString();
  await createShareLink(token, { documentId: doc.id, transactionId: deal.id, orgId: actor.orgId, expiresAt, createdBy: actor.userId, createdAt: now.toISOString() });
  const { message, conversation } = await queueDealSms(
    actor,
    {
      transactionId: deal.id,
      ...to,
      body,
      threadBody: elideToken(body, token),
      kind: 'document_share_sms',
      forceOverride: true,
      documents: [{ documentId: doc.id, fileName: doc.name }],
      context: { linkExpiresAt: expiresAt, expirationHours: hours },
    },
    now,
  );
  return { message, conversation, link: { documentId: doc.id, fileName: doc.name, expiresAt, expirationHours: hours } };
}

/**
 * Shares the deal's document with a party (`contactId`, a linked contact, or `toPhoneNumber`).
 * @throws NotFound for a deal or document that is absent, another organization's, or (the document) another deal's
 * @throws InvalidInput for the recipient or a text too long
 * @throws Conflict when the document has no stored file yet, or the number opted out
 */
export async function shareTransactionDocument(
  actor: Actor,
  input: ShareOptions & { transactionId: string; documentId: string; contactId: string | null; toPhoneNumber: string | null },
  now: Date,
): Promise<ShareResult> {
  const deal = await getDeal(actor.orgId, input.transactionId);
  const doc = await findDocument(actor.orgId, input.documentId);
  if (!doc || doc.transactionId !== deal.id) throw new NotFound('Document');
  return sendLink(actor, deal, doc, await smsRecipient(actor.orgId, deal, input), input, now);
}

/**
 * Shares a document of the conversation's deal with the conversation's number.
 * @throws NotFound for a conversation that is absent or another organization's
 * @throws InvalidInput when `documentId` is missing or not a document of the conversation's deal, or the text is too long
 * @throws Conflict when the document has no stored file yet, or the number opted out
 */
export async function shareConversationDocument(actor: Actor, input: ShareOptions & { threadId: string; documentId: string | null }, now: Date): Promise<ShareResult> {
  const c = await getConversation(actor.orgId, input.threadId);
  if (!input.documentId) throw new InvalidInput({ documentId: 'is required' });
  const doc = await findDocument(actor.orgId, input.documentId);
  if (!doc || doc.transactionId !== c.transactionId) throw new InvalidInput({ documentId: "is not a document of this conversation's transaction" });
  const deal = await getTransactionHead(actor.orgId, c.transactionId).catch((err) => Promise.reject(err instanceof NotFound ? new NotFound('Conversation') : err));
  return sendLink(actor, deal, doc, { phone: c.phone, phoneField: 'threadId', contactId: c.contactId, name: c.name }, input, now);
}
