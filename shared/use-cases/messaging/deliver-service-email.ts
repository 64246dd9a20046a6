/**
 * The send worker's use case for a service email (`service_email.queued`, written by
 * shared/use-cases/messaging/queue-service-email.ts): sends it once through the plain mail port (SES v2 `Simple`
 * content in AWS; the local SMTP server locally) and records the outcome. The never-twice rules are the thread
 * messages' (shared/use-cases/messaging/deliver-message.ts): the attempt is recorded before the provider is called;
 * an attempt found `sending` within `SEND_LEASE_SECONDS` is retried later (`SendInFlight`), after it the email is
 * concluded `unknown` and never sent again by itself; an error the provider answered (or a refused connection) gives
 * the attempt back and is rethrown for the stream's retry; a permanent refusal (`MailRejected`) or a suppressed
 * address (a bounce or complaint, checked just before sending) is `failed`.
 *
 * Where the outcome shows: a disclosure share marks its recipient (`emailStatus` `sent` | `failed` | `unknown`, with
 * `emailDetail`; GET /disclosure-packages/{id}) in the transaction that closes the send; every outcome is logged
 * (`service email send`, with `purpose`) and counted. Metrics (Count; dimension `service` only):
 * `ServiceEmailsSent`, `ServiceEmailsFailed` (refused or suppressed), `ServiceEmailsUnknown`.
 */
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { findEmailSuppression } from '#db/consent';
import { recipientEmailUpdate } from '#db/disclosures';
import { claimServiceEmail, getServiceEmail, releaseServiceEmail, serviceEmailFinish, type ServiceEmail } from '#db/service-emails';
import { transactWrite } from '#db/transact';
import { MailRejected } from '#ports/mailer';
import { logger, metricSet } from '#observability/powertools';
import { sendServiceEmail } from '#use-cases/service-mail';
import { answered, SendInFlight, SEND_LEASE_SECONDS, UNKNOWN_DETAIL, type DeliverOutcome } from '#use-cases/messaging/deliver-message';

/** The service emails' metrics (Count; dimension `service` only). */
export const SERVICE_EMAIL_METRICS = metricSet(['ServiceEmailsSent', 'ServiceEmailsFailed', 'ServiceEmailsUnknown']);

const METRIC = { sent: 'ServiceEmailsSent', failed: 'ServiceEmailsFailed', unknown: 'ServiceEmailsUnknown' } as const;

/** The record the outcome also shows on is gone (a purged package): the send is closed without it. */
class SubjectGone extends Error {}

/** Closes the send as `state` and marks its subject (one transaction); without the subject when that is gone. */
async function finish(e: ServiceEmail, state: 'sent' | 'failed' | 'unknown', detail: string | null, now: Date): Promise<void> {
  const close = serviceEmailFinish(e.orgId, e.emailId, state, now);
  if (e.subject?.kind === 'disclosure_recipient') {
    const mark = recipientEmailUpdate(e.orgId, e.subject.packageId, e.subject.recipientId, state, detail);
    try {
      return await transactWrite([close, mark], (i) => (i === 1 ? new SubjectGone() : new Error(`service email ${e.emailId} is no longer sending`)));
    } catch (err) {
      if (!(err instanceof SubjectGone)) throw err;
    }
  }
  await transactWrite([close]);
}

/**
 * Sends the queued service email `emailId` of `orgId` once and records the outcome.
 * @param now the clock (read again after the provider answers)
 * @returns `sent`; `failed` (refused for good, or the address is suppressed); `unknown` (an attempt was interrupted
 *   after it may have reached the provider: not resent); `skipped` (already final, or gone)
 * @throws SendInFlight when another attempt is within its lease; the transport's or DynamoDB's error when nothing
 *   went out (the attempt is given back): the caller reports the record for a retry
 */
export async function deliverQueuedServiceEmail(orgId: string, emailId: string, now: () => Date = () => new Date()): Promise<DeliverOutcome> {
  const e = await getServiceEmail(orgId, emailId);
  const outcome = await deliver(e, now);
  const detail = { orgId, emailId, purpose: e?.purpose, outcome };
  if (outcome === 'failed' || outcome === 'unknown') logger.error('service email send', detail);
  else logger.info('service email send', detail);
  if (outcome !== 'skipped') SERVICE_EMAIL_METRICS.add(METRIC[outcome], MetricUnit.Count, 1);
  return outcome;
}

async function deliver(e: ServiceEmail | undefined, now: () => Date): Promise<DeliverOutcome> {
  if (!e || e.state === 'sent' || e.state === 'failed' || e.state === 'unknown') return 'skipped';
  if (e.state === 'sending') {
    if (now().getTime() - Date.parse(e.attemptAt ?? '') < SEND_LEASE_SECONDS * 1000) throw new SendInFlight(e.emailId);
    await finish(e, 'unknown', UNKNOWN_DETAIL, now());
    return 'unknown';
  }
  const attemptAt = now().toISOString();
  if (!(await claimServiceEmail(e.orgId, e.emailId, new Date(attemptAt)))) throw new SendInFlight(e.emailId);
  const payload = e.payload!;
  const giveBack = async (err: unknown) => (await releaseServiceEmail(e.orgId, e.emailId, attemptAt), Promise.reject(err));
  // Consent may have changed since the email was queued (a bounce or complaint since).
  const suppressed = await findEmailSuppression(payload.to).catch(giveBack);
  if (suppressed) {
    await finish(e, 'failed', `${payload.to} was suppressed (a bounce or complaint) before the email went out; it was not sent.`, now());
    return 'failed';
  }
  try {
    await sendServiceEmail(payload);
  } catch (err) {
    if (err instanceof MailRejected) {
      await finish(e, 'failed', err.reason, now());
      return 'failed';
    }
    if (answered(err)) return giveBack(err);
    logger.error('service email outcome unknown', { orgId: e.orgId, emailId: e.emailId, error: err });
    await finish(e, 'unknown', UNKNOWN_DETAIL, now());
    return 'unknown';
  }
  await finish(e, 'sent', null, now());
  return 'sent';
}
