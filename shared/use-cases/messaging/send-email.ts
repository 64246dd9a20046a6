/**
 * Queuing a deal email (spec "Messaging": it appears in the merged thread with channel `email`; deal email routes
 * through the acting user's connected mailbox). The request path checks it and records it `queued` with its
 * `message.queued` event; the send worker hands it to the transport and marks it `sent` or `failed`, so the thread
 * never loses a message that went out and the API groups hold no transport. Every email
 * carries this service's Message-ID and the deal's reply address as Reply-To, so replies thread back.
 */
import { randomUUID } from 'node:crypto';
import { getTransactionHead } from '#db/transactions';
import { getDocument } from '#db/documents';
import { getMailAccount, listMailAccounts, type MailAccount } from '#db/mail-accounts';
import { getUser } from '#db/orgs';
import { getCommunication, newCommunication, type Communication, type MessageDocument, type MessageKind, type Party } from '#db/communications';
import { findEmailSuppression } from '#db/consent';
import { replyTokenOf } from '#db/reply-addresses';
import { transactWrite, type TransactItem } from '#db/transact';
import type { EmailSend } from '#db/outbound-sends';
import { inboundMailDomain, serviceSender } from '#ports/mail-identity';
import type { Actor } from '#events/outbox';
import { Conflict, InvalidInput, NotFound } from '#domain/errors';
import { MAX_ATTACHMENT_BYTES, MAX_RECIPIENTS } from '#domain/email-addresses';
import { own } from '#domain/dict';
import { queuedMessageItems } from '#use-cases/messaging/queue-message';

/** What to send. Addresses are validated by the caller. */
export interface EmailRequest {
  transactionId: string;
  kind: MessageKind;
  to: Party[];
  cc?: Party[];
  bcc?: Party[];
  subject: string;
  text: string;
  html?: string | null;
  /** The acting member's mailbox; null/omitted = their default one, else the service's sender. */
  fromAccountId?: string | null;
  /** A message of the same deal this one answers (threading headers). */
  replyToMessageId?: string | null;
  /** Documents of the same deal to attach, with optional file names to attach them as. */
  documentIds?: string[];
  documentFileNames?: Record<string, string>;
  /** The request field naming the documents, for error messages (default `documentIds`). */
  documentsField?: string;
  recipientRole?: string | null;
  contactId?: string | null;
  scheduledMessageId?: string | null;
  /** What the message is for (see `Communication.context`). */
  context?: Record<string, unknown> | null;
}

/** `<messageId@domain>`: the RFC 5322 Message-ID of one of our messages. */
export const emailMessageIdOf = (messageId: string) => `<${messageId}@${inboundMailDomain()}>`;

/** The deal's reply address. */
export async function replyAddressOf(orgId: string, transactionId: string): Promise<string> {
  return `reply+${await replyTokenOf(orgId, transactionId)}@${inboundMailDomain()}`;
}

/**
 * The sender: the named account (which must be the acting member's), else the member's default account, else the
 * service's own address with the member's name.
 * @throws InvalidInput when `fromAccountId` is not one of the member's mailboxes
 */
export async function senderOf(actor: Actor, fromAccountId: string | null | undefined): Promise<{ account: MailAccount | null; address: string; name: string | null }> {
  const user = actor.userId ? await getUser(actor.orgId, actor.userId) : undefined;
  const memberName = user ? [user.firstName, user.lastName].filter(Boolean).join(' ') || null : null;
  let account: MailAccount | null = null;
  if (fromAccountId) {
    account = await getMailAccount(actor.orgId, fromAccountId).catch((err) => (err instanceof NotFound ? null : Promise.reject(err)));
    if (!account || account.userId !== actor.userId) throw new InvalidInput({ fromAccountId: 'is not one of your connected mailboxes' });
  } else if (actor.userId) {
    account = (await listMailAccounts(actor.orgId, actor.userId)).find((a) => a.isDefault) ?? null;
  }
  if (account) return { account, address: account.fromAddress, name: account.displayName ?? memberName };
  return { account: null, address: serviceSender(), name: memberName };
}

/**
 * Checks the attachments (the bytes are read by the send worker): documents of the deal, uploaded, at most
 * `MAX_ATTACHMENT_BYTES` in all by their recorded sizes.
 * @throws InvalidInput for a document of another deal, not uploaded, or too large in all
 */
async function attachmentsOf(orgId: string, req: EmailRequest): Promise<MessageDocument[]> {
  const docs: MessageDocument[] = [];
  const field = req.documentsField ?? 'documentIds';
  let total = 0;
  for (const [i, documentId] of (req.documentIds ?? []).entries()) {
    const doc = await getDocument(orgId, documentId).catch((err) => (err instanceof NotFound ? undefined : Promise.reject(err)));
    if (!doc || doc.transactionId !== req.transactionId) throw new InvalidInput({ [`${field}[${i}]`]: 'is not a document of this transaction' });
    if (doc.uploadState !== 'uploaded') throw new InvalidInput({ [`${field}[${i}]`]: 'has no stored file yet' });
    total += doc.sizeBytes ?? 0;
    if (total > MAX_ATTACHMENT_BYTES) throw new InvalidInput({ [field]: `attachments exceed ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MB in all; share large documents by link instead` });
    docs.push({ documentId, fileName: own(req.documentFileNames ?? {}, documentId) ?? doc.name });
  }
  return docs;
}

/** @throws Conflict when one of `addresses` is suppressed (bounced or complained before) */
export async function assertNotSuppressed(addresses: string[]): Promise<void> {
  for (const address of addresses) {
    const suppressed = await findEmailSuppression(address);
    if (suppressed) throw new Conflict(`${address} is suppressed after a ${suppressed.reason} on ${suppressed.suppressedAt.slice(0, 10)}; it is not emailed again.`);
  }
}

/** The deal's message a reply answers. @throws InvalidInput naming `replyToMessageId` when it is not a message of this deal */
export async function repliedMessage(orgId: string, transactionId: string, messageId: string): Promise<Communication> {
  const original = await getCommunication(orgId, messageId).catch((err) => (err instanceof NotFound ? undefined : Promise.reject(err)));
  if (!original || original.transactionId !== transactionId) throw new InvalidInput({ replyToMessageId: 'is not a message of this transaction' });
  return original;
}

/**
 * Checks the email as a send would and queues it: the `queued` message, its send and the `message.queued` event in
 * one transaction (shared/use-cases/messaging/queue-message.ts). The send worker hands it to the provider and marks
 * it `sent` or `failed` (shared/use-cases/messaging/deliver-message.ts).
 * @param also writes that must commit with it (a scheduled message's claim)
 * @returns the recorded message, `queued`
 * @throws NotFound for a deal that is absent or another organization's
 * @throws InvalidInput for a bad sender, attachment, reply-to message or recipient count
 * @throws Conflict when a recipient's address is suppressed (bounced or complained before)
 */
export async function queueDealEmail(actor: Actor, req: EmailRequest, now: Date, also: TransactItem[] = []): Promise<Communication> {
  const deal = await getTransactionHead(actor.orgId, req.transactionId);
  const cc = req.cc ?? [];
  const bcc = req.bcc ?? [];
  const everyone = [...req.to, ...cc, ...bcc];
  if (!req.to.length) throw new InvalidInput({ toEmail: 'is required: at least one recipient' });
  if (everyone.length > MAX_RECIPIENTS) throw new InvalidInput({ toEmail: `at most ${MAX_RECIPIENTS} recipients in all` });
  await assertNotSuppressed(everyone.map((p) => p.address));
  const sender = await senderOf(actor, req.fromAccountId);
  const inReplyTo = req.replyToMessageId ? await repliedMessage(actor.orgId, deal.id, req.replyToMessageId) : null;
  const docs = await attachmentsOf(actor.orgId, req);
  // html-to-text is loaded only here (a chunk beside the messaging bundle: lib/bundling/lazy-modules.ts).
  const text = req.text || (req.html ? (await import('#domain/html-to-text')).htmlToText(req.html) : '');
  const id = randomUUID();
  const emailMessageId = emailMessageIdOf(id);
  const message = newCommunication(
    {
      id,
      emailMessageId,
      transactionId: deal.id,
      channel: 'email',
      direction: 'outbound',
      kind: req.kind,
      status: 'queued',
      from: { address: sender.address, name: sender.name, contactId: null },
      to: req.to,
      cc,
      bcc,
      subject: req.subject,
      bodyText: text,
      bodyHtml: req.html ?? null,
      inReplyTo: inReplyTo?.id ?? null,
      documents: docs,
      recipientRole: req.recipientRole ?? null,
      context: req.context ?? null,
      scheduledMessageId: req.scheduledMessageId ?? null,
      contactId: req.contactId ?? req.to.find((p) => p.contactId)?.contactId ?? null,
      sentBy: actor.userId,
    },
    now,
  );
  const email: EmailSend = {
    channel: 'email',
    accountId: sender.account?.id ?? null,
    from: { address: sender.address, name: sender.name },
    replyTo: await replyAddressOf(actor.orgId, deal.id),
    to: req.to.map((p) => p.address),
    cc: cc.map((p) => p.address),
    bcc: bcc.map((p) => p.address),
    subject: req.subject,
    text,
    html: req.html ?? null,
    messageId: emailMessageId,
    inReplyTo: inReplyTo?.emailMessageId ?? null,
    references: inReplyTo?.emailMessageId ? [inReplyTo.emailMessageId] : [],
    attachments: docs,
  };
  await transactWrite([...queuedMessageItems(actor, message, email, req.scheduledMessageId ?? null, now), ...also]);
  return message;
}
