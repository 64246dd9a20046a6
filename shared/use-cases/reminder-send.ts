/**
 * Sending a deadline reminder when its schedule fires (shared/use-cases/reminders.ts creates and moves them).
 * - Nothing sends twice: the send claims the reminder (`pending` → `sending`, at the generation of the schedule that
 *   fired) before it sends, so a duplicate or stale invocation finds nothing to claim.
 * - The email is rendered when it is sent, with the deal's values then; roles are resolved then too. A merge field
 *   without a value fails the reminder (it is never sent with a blank).
 */
import { getReminder, updateReminder } from '#db/reminders';
import { getDeal } from '#db/transactions';
import { NotFound, Unavailable } from '#domain/errors';
import { isEmailAddress } from '#domain/email-addresses';
import { reminderTime } from '#domain/reminders';
import { partiesOf } from '#use-cases/messaging/deal-parties';
import { queueDealEmail } from '#use-cases/messaging/send-email';
import { findEmailTemplate } from '#use-cases/email-templates';
import { deadlineOf, recipientsOf, reminderMergeFields } from '#use-cases/reminders';
import type { ReminderFire } from '#use-cases/reminder-schedule';
import { renderWith } from '#use-cases/template-preview';

/**
 * Sends a reminder when its schedule fires (the scheduled-send worker). Acts as the member who created it.
 * @returns `sent`; `failed` (for good: no recipient left, a merge field without a value, a suppressed address);
 *   `stale` (its key date moved since it was scheduled and the move did not reach it: it is not sent at the old
 *   time but ends `failed`, or `expired` when the new time has passed, saying so); `skipped` (not
 *   pending at this generation: sent, moving or gone)
 * @throws Error for a transient failure (the reminder is pending again; the scheduler retries)
 */
export async function sendReminder(fire: ReminderFire, now: Date): Promise<'sent' | 'failed' | 'stale' | 'skipped'> {
  const { orgId } = fire;
  const r = await getReminder(orgId, fire.transactionId, fire.reminderId).catch((err) => (err instanceof NotFound ? undefined : Promise.reject(err)));
  if (!r || r.status !== 'pending' || r.generation !== fire.generation) return 'skipped';
  const deal = await getDeal(orgId, r.transactionId).catch((err) => (err instanceof NotFound ? undefined : Promise.reject(err)));
  if (deal) {
    const deadline = deadlineOf(deal, r);
    // The move normally reschedules it (followKeyDates); this worker cannot create schedules (it is their target).
    if (deadline !== r.deadlineDate) {
      const { sendAt } = reminderTime(deadline, r.daysBeforeReminder, r.reminderTimeOfDay, r.timezone);
      const passed = Date.parse(sendAt) <= now.getTime();
      const error = `the deadline moved from ${r.deadlineDate} to ${deadline} after the reminder was scheduled; not sent at the old time${passed ? '' : ': create it again'}`;
      const moved = await updateReminder(orgId, r, { from: 'pending', generation: r.generation }, { status: passed ? 'expired' : 'failed', error, updatedAt: now.toISOString() });
      return moved ? 'stale' : 'skipped';
    }
  }
  if (!(await updateReminder(orgId, r, { from: 'pending', generation: r.generation }, { status: 'sending', updatedAt: now.toISOString() }))) return 'skipped';
  const at = { from: 'sending' as const, generation: r.generation };
  const fail = async (error: string) => {
    await updateReminder(orgId, r, at, { status: 'failed', error, updatedAt: now.toISOString() });
    return 'failed' as const;
  };
  if (!deal) return fail('the transaction no longer exists');
  try {
    const template = await findEmailTemplate(orgId, r.emailTemplateId);
    if (!template) return await fail(`its email template ${r.emailTemplateId} no longer exists`);
    const email = await renderWith(template, await reminderMergeFields(orgId, deal, r));
    const blank = [...email.unknownFields, ...email.missingFields];
    if (blank.length) return await fail(`merge fields without a value: ${blank.join(', ')}; not sent rather than sent with blanks`);
    const { addresses } = recipientsOf(deal, r);
    const to = addresses.filter(isEmailAddress);
    if (!to.length) return await fail('no recipient is left: the roles reach nobody with an email address');
    const sent = await queueDealEmail(
      { orgId, userId: r.createdBy },
      {
        transactionId: r.transactionId,
        kind: 'reminder_email',
        to: partiesOf(deal, to),
        subject: email.subject,
        text: email.body,
        context: { reminderId: r.id, deadlineType: r.deadlineType, deadlineDate: r.deadlineDate, daysBeforeReminder: r.daysBeforeReminder, templateId: email.template.id },
      },
      now,
    );
    // Handed to the send worker: the reminder is done; the message's delivery is on the thread (`sentMessageId`).
    await updateReminder(orgId, r, at, { status: 'sent', sentAt: now.toISOString(), sentMessageId: sent.id, error: null, updatedAt: now.toISOString() });
    return 'sent';
  } catch (err) {
    if (err instanceof Unavailable) {
      await updateReminder(orgId, r, at, { status: 'pending', error: err.message, updatedAt: now.toISOString() });
      throw err;
    }
    // A rule refused it (address suppressed, template gone): it will not succeed on a retry.
    return fail(err instanceof Error ? err.message : String(err));
  }
}
