/**
 * The send worker's use case (functions/message-send/handler.ts): hands one queued message (`message.queued`, written
 * by shared/use-cases/messaging/queue-message.ts) to its provider and marks it on the thread. Only the worker holds
 * the transports (nodemailer, SES v2, End User Messaging SMS); the API groups and the scheduled-send target queue.
 *
 * Never twice (a transaction coordinator's clients must not get a duplicate email or text):
 * 1. The attempt is recorded before the provider is called (`queued` → `sending` with `attemptAt`, conditional:
 *    shared/db/outbound-sends.ts), so a duplicate event or a concurrent run finds it taken.
 * 2. The provider's acceptance and the mark commit together: the message `sent` with the provider's id, the send
 *    closed (one transaction), then the scheduled message it completes.
 * 3. A run that finds an attempt `sending` reconciles instead of sending: within `SEND_LEASE_SECONDS` of `attemptAt`
 *    the attempt may still be running, so it throws `SendInFlight` (the stream retries the record later); after the
 *    lease the attempt is over and may or may not have reached the provider, so the message is marked `failed` with
 *    a detail saying its delivery is unknown and the send `unknown`: it is never sent again by itself.
 * 4. An error the provider answered with (throttling, a 4xx/5xx it returned), or one before the provider was called,
 *    proves nothing went out: the attempt is given back (`queued`) and the error rethrown, so the stream retries. A
 *    permanent refusal (`MailRejected`, `SmsRejected`, a missing attachment or mailbox) marks it `failed`. An error
 *    without an answer (a timeout, a reset connection) is ambiguous and is treated as step 3's `unknown`.
 * Consent is checked again just before the provider is called: a number that texted STOP or an address suppressed
 * after the message was queued is never sent to (the message is marked `failed`, saying why).
 * Email carries the Message-ID the request path assigned (`<messageId@domain>`), so a recipient's server and the
 * thread can recognise the one message whatever happens.
 *
 * `bounced` and `complained` come later from the provider's events (shared/use-cases/messaging/delivery-events.ts).
 * Metrics (Count; dimension `service` only): `MessagesSent`, `MessagesFailed`, `MessagesUnknown`, `MessagesSkipped`.
 */
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { communicationOutcome } from '#db/communications';
import { findEmailSuppression, findSmsOptOut } from '#db/consent';
import { getDocument } from '#db/documents';
import { getMailAccount } from '#db/mail-accounts';
import { claimOutboundSend, getOutboundSend, outboundSendFinish, releaseOutboundSend, type EmailSend, type OutboundSend, type SmsSend } from '#db/outbound-sends';
import { transitionScheduledMessage } from '#db/scheduled-messages';
import { transactWrite } from '#db/transact';
import { getObjectBytes } from '#ports/blob-store';
import { MailRejected, type OutboundEmail } from '#ports/mailer';
import { mailer } from '#ports/mail/transport';
import { MAX_ATTACHMENT_BYTES } from '#domain/email-addresses';
import { SmsRejected } from '#ports/sms';
import { smsSender } from '#ports/sms/transport';
import { DomainError } from '#domain/errors';
import { logger, metricSet } from '#observability/powertools';

/** Seconds an attempt may run before a retry may conclude it is over: above the send worker's 60 s timeout. */
export const SEND_LEASE_SECONDS = 120;

/** The send worker's metrics (Count; dimension `service` only). */
export const MESSAGE_SEND_METRICS = metricSet(['MessagesSent', 'MessagesFailed', 'MessagesUnknown', 'MessagesSkipped']);

/** What one run did with a queued message. */
export type DeliverOutcome = 'sent' | 'failed' | 'unknown' | 'skipped';

/** Another attempt of the message started less than `SEND_LEASE_SECONDS` ago: retry the event later. */
export class SendInFlight extends Error {
  constructor(messageId: string) {
    super(`message ${messageId} is being sent by another attempt; retry after its lease`);
    this.name = 'SendInFlight';
  }
}

/** The thread's detail of a message whose attempt was interrupted. */
export const UNKNOWN_DETAIL = 'The send was interrupted after it may have reached the provider; it is not sent again automatically. Check with the recipient before sending it again.';

/** The provider refused for good, or something it needs is gone: `reason` goes on the thread. */
class Refused extends Error {}

/**
 * Whether the error proves the message did not go out: the provider answered it (an HTTP status from SES or End User
 * Messaging, an SMTP reply code), or the connection was never opened (`ECONNREFUSED`; nodemailer's `CONN` stage).
 */
export function answered(err: unknown): boolean {
  const e = err as { $metadata?: { httpStatusCode?: number }; responseCode?: number; code?: string; command?: string };
  return typeof e?.$metadata?.httpStatusCode === 'number' || typeof e?.responseCode === 'number' || e?.code === 'ECONNREFUSED' || e?.command === 'CONN';
}

/** The email with its attachments read from the documents bucket. @throws Refused when a document or the mailbox is gone, or too large */
async function outboundEmail(orgId: string, e: EmailSend) {
  const via = e.accountId ? await getMailAccount(orgId, e.accountId).catch((err) => Promise.reject(err instanceof DomainError ? new Refused('The sending mailbox was disconnected before the email went out.') : err)) : null;
  const attachments: OutboundEmail['attachments'] = [];
  let total = 0;
  for (const a of e.attachments) {
    const doc = await getDocument(orgId, a.documentId).catch((err) => Promise.reject(err instanceof DomainError ? new Refused(`The attachment ${a.fileName} was deleted before the email went out.`) : err));
    const content = Buffer.from(await getObjectBytes(doc.s3Key));
    total += content.length;
    if (total > MAX_ATTACHMENT_BYTES) throw new Refused(`The attachments exceed ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MB in all.`);
    attachments.push({ filename: a.fileName, contentType: doc.contentType, content });
  }
  const { channel: _c, accountId: _a, attachments: _refs, ...email } = e;
  return { email: { ...email, attachments }, via };
}

type Prepared = { channel: 'sms'; sms: SmsSend } | { channel: 'email'; email: OutboundEmail; via: Awaited<ReturnType<typeof getMailAccount>> | null };

/**
 * What the transport needs, read before it is called; consent is checked again, as it may have changed since the
 * message was queued (a STOP, a bounce).
 * @throws Refused when a recipient opted out or is suppressed, or something the email needs is gone
 */
async function prepare(orgId: string, payload: EmailSend | SmsSend): Promise<Prepared> {
  if (payload.channel === 'sms') {
    if (await findSmsOptOut(payload.to)) throw new Refused(`${payload.to} opted out of texts before the text went out; it was not sent.`);
    return { channel: 'sms', sms: payload };
  }
  for (const address of [...payload.to, ...payload.cc, ...payload.bcc]) {
    if (await findEmailSuppression(address)) throw new Refused(`${address} was suppressed (a bounce or complaint) before the email went out; it was not sent.`);
  }
  return { channel: 'email', ...(await outboundEmail(orgId, payload)) };
}

/** Sends through the transport. @throws Refused for a permanent refusal; the transport's error otherwise */
async function transport(p: Prepared): Promise<{ provider: string; providerMessageId: string; from?: string | null }> {
  try {
    if (p.channel === 'sms') return await smsSender().send({ to: p.sms.to, body: p.sms.body });
    return await mailer().send(p.email, p.via);
  } catch (err) {
    if (err instanceof MailRejected || err instanceof SmsRejected) throw new Refused(err.reason);
    throw err;
  }
}

/** Marks the message and closes the send (one transaction), then the scheduled message it completes. */
async function finish(send: OutboundSend, state: 'sent' | 'failed' | 'unknown', sent: { provider: string; providerMessageId: string; from?: string | null } | null, detail: string | null, now: Date): Promise<void> {
  const m = { id: send.messageId, transactionId: send.transactionId, createdAt: send.messageCreatedAt };
  await transactWrite([...communicationOutcome(send.orgId, m, sent, detail, now), outboundSendFinish(send.orgId, send.messageId, state, now)]);
  await closeScheduled(send, state === 'sent', detail, now);
}

/** The scheduled message's end (`sending` → `sent` | `failed`); idempotent, so a reconciling retry repeats it. */
async function closeScheduled(send: OutboundSend, ok: boolean, detail: string | null, now: Date): Promise<void> {
  if (!send.scheduledMessageId) return;
  await transitionScheduledMessage(send.orgId, { id: send.scheduledMessageId, transactionId: send.transactionId }, 'sending', ok ? 'sent' : 'failed', now, { sentMessageId: send.messageId, error: ok ? null : detail });
}

const METRIC = { sent: 'MessagesSent', failed: 'MessagesFailed', unknown: 'MessagesUnknown', skipped: 'MessagesSkipped' } as const;

/**
 * Sends the queued message `messageId` of `orgId` once and marks it.
 * @param now the clock (read again after the provider answers)
 * @returns `sent`; `failed` (refused for good); `unknown` (an earlier attempt was interrupted: marked failed, not
 *   resent); `skipped` (already final, or its send is gone)
 * @throws SendInFlight when another attempt is within its lease; the transport's or DynamoDB's error when nothing
 *   went out (the attempt is given back): the caller reports the record for a retry
 */
export async function deliverQueuedMessage(orgId: string, messageId: string, now: () => Date = () => new Date()): Promise<DeliverOutcome> {
  const outcome = await deliver(orgId, messageId, now);
  logger.info('message send', { orgId, messageId, outcome });
  MESSAGE_SEND_METRICS.add(METRIC[outcome], MetricUnit.Count, 1);
  return outcome;
}

async function deliver(orgId: string, messageId: string, now: () => Date): Promise<DeliverOutcome> {
  const send = await getOutboundSend(orgId, messageId);
  if (!send) return 'skipped';
  if (send.state === 'sent' || send.state === 'failed' || send.state === 'unknown') {
    await closeScheduled(send, send.state === 'sent', send.state === 'unknown' ? UNKNOWN_DETAIL : 'The email was not sent; its message on the thread says why.', now());
    return 'skipped';
  }
  if (send.state === 'sending') {
    if (now().getTime() - Date.parse(send.attemptAt ?? '') < SEND_LEASE_SECONDS * 1000) throw new SendInFlight(messageId);
    await finish(send, 'unknown', null, UNKNOWN_DETAIL, now());
    return 'unknown';
  }
  const attemptAt = now();
  if (!(await claimOutboundSend(orgId, messageId, attemptAt))) throw new SendInFlight(messageId);
  const claimed: OutboundSend = { ...send, state: 'sending', attemptAt: attemptAt.toISOString() };
  const refused = async (err: Refused) => (await finish(claimed, 'failed', null, err.message, now()), 'failed' as const);
  let prepared: Prepared;
  try {
    prepared = await prepare(orgId, send.payload!);
  } catch (err) {
    if (err instanceof Refused) return refused(err);
    await releaseOutboundSend(orgId, messageId, claimed.attemptAt!);
    throw err;
  }
  let sent: Awaited<ReturnType<typeof transport>>;
  try {
    sent = await transport(prepared);
  } catch (err) {
    if (err instanceof Refused) return refused(err);
    if (!answered(err)) {
      logger.error('send outcome unknown', { orgId, messageId, error: err });
      await finish(claimed, 'unknown', null, UNKNOWN_DETAIL, now());
      return 'unknown';
    }
    await releaseOutboundSend(orgId, messageId, claimed.attemptAt!);
    throw err;
  }
  await finish(claimed, 'sent', sent, null, now());
  return 'sent';
}
