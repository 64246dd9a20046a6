/**
 * Scheduled emails (spec "Messaging": scheduled messages list, create, `DELETE /scheduled-messages/{messageId}`).
 * Creating one records it `pending` and creates a one-time schedule that invokes the scheduled-send worker at the
 * requested wall-clock time in the requested time zone; cancelling moves it to `cancelled` and deletes the
 * schedule. The send claims the message (`pending` → `sending`) before sending, so a retried or duplicated
 * invocation never sends it twice; a send that fails for good ends `failed`, a transient failure puts it back to
 * `pending` and rethrows so the scheduler retries (then dead-letters it).
 */
import { randomUUID } from 'node:crypto';
import { DateTime } from 'luxon';
import { getTransactionHead } from '#db/transactions';
import {
  getScheduledMessage,
  scheduledMessagePut,
  transitionScheduledMessage,
  type ScheduledEmail,
  type ScheduledMessage,
} from '#db/scheduled-messages';
import { transactWrite } from '#db/transact';
import { scheduler } from '#ports/scheduler';
import type { Actor } from '#events/outbox';
import { Conflict, InvalidInput, NotFound, Unavailable } from '#domain/errors';
import { parseAddressList } from '#domain/email-addresses';
import { sendDealEmail } from '#use-cases/messaging/send-email';

/** How far ahead a message can be scheduled. */
export const MAX_SCHEDULE_DAYS = 365;

/** The schedule's name (EventBridge Scheduler: at most 64 of letters, digits, `-`, `_`, `.`). */
export const scheduleNameOf = (messageId: string) => `msg-${messageId}`;

/**
 * Checks the request's time: a wall-clock time (`YYYY-MM-DDTHH:mm[:ss]`, or an ISO date-time with an offset, whose
 * instant is then shown in the zone) in an IANA zone, at least a minute ahead and at most a year.
 * @returns the wall-clock time (seconds precision) and the instant (ISO UTC)
 * @throws InvalidInput naming `scheduledAt` or `scheduledTimezone`
 */
export function scheduleTime(scheduledAt: string, timezone: string, now: Date): { local: string; sendAt: string } {
  if (!DateTime.local().setZone(timezone).isValid) throw new InvalidInput({ scheduledTimezone: 'is not an IANA time zone (e.g. America/Chicago)' });
  const hasOffset = /(Z|[+-]\d{2}:?\d{2})$/.test(scheduledAt);
  const t = hasOffset ? DateTime.fromISO(scheduledAt, { setZone: true }).setZone(timezone) : DateTime.fromISO(scheduledAt, { zone: timezone });
  if (!t.isValid || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(scheduledAt)) throw new InvalidInput({ scheduledAt: 'must be a date and time, e.g. 2027-01-15T09:00' });
  // A wall-clock time skipped by a DST change does not exist there; luxon would move it silently.
  if (!hasOffset && t.toFormat("yyyy-MM-dd'T'HH:mm") !== scheduledAt.slice(0, 16)) throw new InvalidInput({ scheduledAt: `does not exist in ${timezone} (skipped by a daylight-saving change)` });
  const ms = t.toMillis();
  if (ms < now.getTime() + 60_000) throw new InvalidInput({ scheduledAt: 'must be at least one minute in the future' });
  if (ms > now.getTime() + MAX_SCHEDULE_DAYS * 86_400_000) throw new InvalidInput({ scheduledAt: `must be within ${MAX_SCHEDULE_DAYS} days` });
  return { local: t.toFormat("yyyy-MM-dd'T'HH:mm:ss"), sendAt: t.toUTC().toISO()! };
}

/**
 * Schedules an email.
 * @throws NotFound for a deal that is absent or another organization's
 * @throws InvalidInput for the time, zone or addresses
 * @throws Unavailable when the scheduler refused (nothing is left scheduled)
 */
export async function scheduleDealEmail(actor: Actor, transactionId: string, input: { scheduledAt: string; scheduledTimezone: string; email: ScheduledEmail }, now: Date): Promise<ScheduledMessage> {
  const deal = await getTransactionHead(actor.orgId, transactionId);
  const { local, sendAt } = scheduleTime(input.scheduledAt, input.scheduledTimezone, now);
  const fields: Record<string, string> = {};
  for (const f of ['toEmail', 'ccAddresses', 'bccAddresses'] as const) {
    const { invalid } = parseAddressList(input.email[f]);
    if (invalid.length) fields[f] = `is not a list of email addresses: ${invalid.slice(0, 3).join(', ')}`;
  }
  if (!parseAddressList(input.email.toEmail).addresses.length) fields.toEmail ??= 'is required: at least one recipient';
  if (Object.keys(fields).length) throw new InvalidInput(fields);
  const id = randomUUID();
  const m: ScheduledMessage = {
    id,
    transactionId: deal.id,
    status: 'pending',
    sendAt,
    scheduledLocal: local,
    scheduledTimezone: input.scheduledTimezone,
    email: input.email,
    scheduleName: scheduleNameOf(id),
    createdBy: actor.userId,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    sentMessageId: null,
    error: null,
  };
  await transactWrite([scheduledMessagePut(actor.orgId, m)]);
  try {
    await (await scheduler()).create({ name: m.scheduleName, at: local, timezone: m.scheduledTimezone, target: 'scheduled-send', payload: { orgId: actor.orgId, scheduledMessageId: id } });
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
