/**
 * Scheduled emails (spec "Messaging": scheduled messages list, create, `DELETE /scheduled-messages/{messageId}`).
 * Creating one records it `pending` and asks for a one-time schedule that invokes the scheduled-send worker at the
 * requested wall-clock time in the requested time zone (`schedule.requested`, created by the outbox relay);
 * cancelling moves it to `cancelled` and asks for the schedule's deletion (`schedule.cancel_requested`). When it
 * fires, the message is claimed (`pending` → `sending`) in the transaction that queues its email, so a retried or
 * duplicated invocation never queues it twice; the send worker (shared/use-cases/messaging/
 * deliver-message.ts) ends it `sent` or `failed`. A rule refusing it ends it `failed`; a transient failure leaves it
 * `pending` and rethrows so the scheduler retries (then dead-letters it).
 */
import { randomUUID } from 'node:crypto';
import { getTransactionHead } from '#db/transactions';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  getScheduledMessage,
  scheduledMessagePut,
  scheduledMessageTransition,
  transitionScheduledMessage,
  type ScheduledMessage,
} from '#db/scheduled-messages';
import { transactWrite } from '#db/transact';
import { scheduleCancelPut, scheduleRequestPut } from '#use-cases/schedule-requests';
import type { Actor } from '#events/outbox';
import { Conflict, DomainError, NotFound, Unavailable } from '#domain/errors';
import { parseAddressList } from '#domain/email-addresses';
import { queueDealEmail } from '#use-cases/messaging/send-email';
import { checkedEmail, type ScheduleRequest } from '#use-cases/messaging/schedule-request';

/** The schedule's name (EventBridge Scheduler: at most 64 of letters, digits, `-`, `_`, `.`). */
export const scheduleNameOf = (messageId: string) => `msg-${messageId}`;

/**
 * Schedules an email: checks it as a send would (addresses, suppressions, sender mailbox, the deal's documents), and
 * records it `pending` with the `schedule.requested` event of its one-time schedule in one transaction (the outbox
 * relay creates the schedule; one it cannot create leaves the message `failed` with an `error`).
 * @throws NotFound for a deal that is absent or another organization's
 * @throws InvalidInput for the time, zone, addresses, content, mailbox or documents
 * @throws Conflict when a recipient's address is suppressed
 */
export async function scheduleDealEmail(actor: Actor, transactionId: string, input: ScheduleRequest, now: Date): Promise<ScheduledMessage> {
  const deal = await getTransactionHead(actor.orgId, transactionId);
  const { local, sendAt, timezone, email } = await checkedEmail(actor, deal.id, input, now);
  const id = randomUUID();
  const m: ScheduledMessage = {
    id,
    transactionId: deal.id,
    status: 'pending',
    sendAt,
    scheduledLocal: local,
    scheduledTimezone: timezone,
    email,
    scheduleName: scheduleNameOf(id),
    createdBy: actor.userId,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    sentMessageId: null,
    error: null,
  };
  const schedule = { name: m.scheduleName, at: local, timezone, target: 'scheduled-send' as const, payload: { orgId: actor.orgId, scheduledMessageId: id } };
  await transactWrite([scheduledMessagePut(actor.orgId, m), scheduleRequestPut(actor, schedule, subjectOf(m), now)]);
  return m;
}

/** What the relay marks `failed` when the message's schedule cannot be created. */
const subjectOf = (m: Pick<ScheduledMessage, 'id' | 'transactionId'>) => ({ kind: 'scheduled_message' as const, transactionId: m.transactionId, scheduledMessageId: m.id });

/**
 * Cancels a pending scheduled message: `cancelled` with the `schedule.cancel_requested` event of its schedule, in one
 * transaction. The send never happens even while the schedule's deletion lags: the worker claims only a `pending`
 * message (`sendScheduledEmail`).
 * @returns the message, now `cancelled`
 * @throws NotFound when absent or another organization's
 * @throws Conflict when it is no longer pending (sending, sent, failed or cancelled already)
 */
export async function cancelScheduledEmail(actor: Actor, id: string, now: Date): Promise<ScheduledMessage> {
  const m = await getScheduledMessage(actor.orgId, id, true);
  const notPending = new Conflict('not pending');
  try {
    await transactWrite([scheduledMessageTransition(actor.orgId, m, 'pending', 'cancelled', now), scheduleCancelPut(actor, m.scheduleName, subjectOf(m), now)], () => notPending);
  } catch (err) {
    if (err !== notPending) throw err;
    const current = await getScheduledMessage(actor.orgId, id, true);
    throw new Conflict(`Scheduled message ${id} is ${current.status}; only a pending message can be cancelled.`);
  }
  return { ...m, status: 'cancelled', updatedAt: now.toISOString() };
}

/**
 * Queues a scheduled message when its schedule fires (the scheduled-send worker), as the member who scheduled it:
 * the message's claim (`pending` → `sending`) commits with the queued email, so a retried or duplicated invocation
 * never queues it twice. The send worker marks it `sent` or `failed` with the email's outcome.
 * @returns `queued`; `failed` (for good: a rule refused it, e.g. deal gone, address suppressed, attachment gone);
 *   `skipped` (not pending: cancelled, already queued or sent)
 * @throws Error for a transient failure (it stays pending; the scheduler retries)
 */
export async function sendScheduledEmail(orgId: string, id: string, now: Date): Promise<'queued' | 'failed' | 'skipped'> {
  const m = await getScheduledMessage(orgId, id, true).catch((err) => (err instanceof NotFound ? undefined : Promise.reject(err)));
  if (!m || m.status !== 'pending') return 'skipped';
  const actor = { orgId, userId: m.createdBy };
  const parse = (list: string | null) => parseAddressList(list).addresses.map((address) => ({ address, name: null, contactId: null }));
  try {
    const request = {
      transactionId: m.transactionId,
      kind: 'scheduled_email' as const,
      to: parse(m.email.toEmail),
      cc: parse(m.email.ccAddresses),
      bcc: parse(m.email.bccAddresses),
      subject: m.email.subject ?? '',
      text: m.email.body ?? '',
      html: m.email.htmlBody,
      fromAccountId: m.email.fromAccountId,
      documentIds: m.email.documentIds,
      documentFileNames: m.email.documentFileNames,
      scheduledMessageId: id,
    };
    await queueDealEmail(actor, request, now, [scheduledMessageTransition(orgId, m, 'pending', 'sending', now)]);
    return 'queued';
  } catch (err) {
    // The claim's condition failed: another run queued it, or it was cancelled meanwhile.
    if (err instanceof TransactionCanceledException && err.CancellationReasons?.some((r) => r.Code === 'ConditionalCheckFailed')) return 'skipped';
    if (!(err instanceof DomainError) || err instanceof Unavailable) throw err;
    // A rule refused it (deal gone, address suppressed, attachment gone): it will not succeed on a retry.
    const failed = await transitionScheduledMessage(orgId, m, 'pending', 'failed', now, { error: err.message });
    return failed ? 'failed' : 'skipped';
  }
}
