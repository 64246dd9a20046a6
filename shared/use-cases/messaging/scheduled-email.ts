/**
 * Scheduled emails (spec "Messaging": scheduled messages list, create, `DELETE /scheduled-messages/{messageId}`).
 * Creating one records it `pending` and creates a one-time schedule that invokes the scheduled-send worker at the
 * requested wall-clock time in the requested time zone; cancelling moves it to `cancelled` and deletes the
 * schedule. The send claims the message (`pending` → `sending`) before sending, so a retried or duplicated
 * invocation never sends it twice; a send that fails for good ends `failed`, a transient failure puts it back to
 * `pending` and rethrows so the scheduler retries (then dead-letters it).
 */
import { randomUUID } from 'node:crypto';
import { getTransactionHead } from '#db/transactions';
import {
  getScheduledMessage,
  scheduledMessagePut,
  transitionScheduledMessage,
  type ScheduledMessage,
} from '#db/scheduled-messages';
import { transactWrite } from '#db/transact';
import { scheduler } from '#ports/scheduler';
import type { Actor } from '#events/outbox';
import { Conflict, NotFound, Unavailable } from '#domain/errors';
import { parseAddressList } from '#domain/email-addresses';
import { sendDealEmail } from '#use-cases/messaging/send-email';
import { checkedEmail, type ScheduleRequest } from '#use-cases/messaging/schedule-request';

/** The schedule's name (EventBridge Scheduler: at most 64 of letters, digits, `-`, `_`, `.`). */
export const scheduleNameOf = (messageId: string) => `msg-${messageId}`;

/**
 * Schedules an email: checks it as a send would (addresses, suppressions, sender mailbox, the deal's documents), records
 * it `pending` and creates its one-time schedule.
 * @throws NotFound for a deal that is absent or another organization's
 * @throws InvalidInput for the time, zone, addresses, content, mailbox or documents
 * @throws Conflict when a recipient's address is suppressed
 * @throws Unavailable when the scheduler refused (nothing is left scheduled)
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
  await transactWrite([scheduledMessagePut(actor.orgId, m)]);
  try {
    await (await scheduler()).create({ name: m.scheduleName, at: local, timezone, target: 'scheduled-send', payload: { orgId: actor.orgId, scheduledMessageId: id } });
  } catch (err) {
    await transitionScheduledMessage(actor.orgId, id, 'pending', 'failed', now, { error: 'the scheduler refused the schedule' });
    throw new Unavailable('The message could not be scheduled; retry.', { cause: err });
  }
  return m;
}

/**
 * Cancels a pending scheduled message and deletes its schedule.
 * @returns the message, now `cancelled`
 * @throws NotFound when absent or another organization's
 * @throws Conflict when it is no longer pending (sending, sent, failed or cancelled already)
 */
export async function cancelScheduledEmail(actor: Actor, id: string, now: Date): Promise<ScheduledMessage> {
  const m = await getScheduledMessage(actor.orgId, id, true);
  if (!(await transitionScheduledMessage(actor.orgId, id, 'pending', 'cancelled', now))) {
    const current = await getScheduledMessage(actor.orgId, id, true);
    throw new Conflict(`Scheduled message ${id} is ${current.status}; only a pending message can be cancelled.`);
  }
  await (await scheduler()).delete(m.scheduleName);
  return { ...m, status: 'cancelled', updatedAt: now.toISOString() };
}

/**
 * Sends a scheduled message when its schedule fires (the scheduled-send worker). Acts as the member who scheduled it.
 * @returns what happened: `sent`, `failed` (for good), or `skipped` (not pending: cancelled, already sent or sending)
 * @throws Error for a transient failure (the message is pending again; the scheduler retries)
 */
export async function sendScheduledEmail(orgId: string, id: string, now: Date): Promise<'sent' | 'failed' | 'skipped'> {
  const m = await getScheduledMessage(orgId, id, true).catch((err) => (err instanceof NotFound ? undefined : Promise.reject(err)));
  if (!m || !(await transitionScheduledMessage(orgId, id, 'pending', 'sending', now))) return 'skipped';
  const actor = { orgId, userId: m.createdBy };
  const parse = (list: string | null) => parseAddressList(list).addresses.map((address) => ({ address, name: null, contactId: null }));
  try {
    const sent = await sendDealEmail(
      actor,
      {
        transactionId: m.transactionId,
        kind: 'scheduled_email',
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
      },
      now,
    );
    const ok = sent.status === 'sent';
    await transitionScheduledMessage(orgId, id, 'sending', ok ? 'sent' : 'failed', now, { sentMessageId: sent.id, error: ok ? null : sent.statusDetail });
    return ok ? 'sent' : 'failed';
  } catch (err) {
    if (err instanceof Unavailable) {
      await transitionScheduledMessage(orgId, id, 'sending', 'pending', now, { error: err.message });
      throw err;
    }
    // A rule refused it (deal gone, address suppressed, attachment gone): it will not succeed on a retry.
    await transitionScheduledMessage(orgId, id, 'sending', 'failed', now, { error: err instanceof Error ? err.message : String(err) });
    return 'failed';
  }
}
