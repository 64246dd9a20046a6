/**
 * Deadline reminders (spec "Transactions": `POST .../reminders`): an email N days before a deadline at a time of day
 * in the organization's time zone, to recipients by role and/or address, written from an email template.
 *
 * - Built on the scheduled-send machinery: a one-time schedule (EventBridge Scheduler; the local scheduler here)
 *   invokes the scheduled-send worker with `{orgId, transactionId, reminderId, generation}`.
 * - A reminder naming a key-date type follows that key date: when the date moves (key-date writes, the status
 *   cascade, applying a contract) it gets a new schedule (generation + 1) and the old one is deleted. A reminder
 *   whose new time has already passed ends `expired`, unsent.
 * - Sending is in shared/use-cases/reminder-send.ts (only the scheduled-send worker bundles the mail transport).
 */
import { randomUUID } from 'node:crypto';
import { reminderPut, updateReminder, type Reminder } from '#db/reminders';
import { organizationTimezone } from '#db/orgs';
import { getDeal, type Deal } from '#db/transactions';
import { transactWrite } from '#db/transact';
import { scheduler } from '#ports/scheduler';
import type { Actor } from '#events/outbox';
import { Conflict, InvalidInput, Unavailable } from '#domain/errors';
import { MAX_RECIPIENTS, parseAddressList } from '#domain/email-addresses';
import { mergeFieldsOf } from '#domain/merge-fields';
import { DEFAULT_DAYS_BEFORE, DEFAULT_REMINDER_TIME, parseTimeOfDay, reminderTime } from '#domain/reminders';
import { DEFAULT_REMINDER_TEMPLATE } from '#domain/system-email-templates';
import { findEmailTemplate, mergeSourceOf, renderWith, type RenderedTemplate } from '#use-cases/email-templates';
import { findEmailSuppression } from '#db/consent';
import { logger } from '#observability/powertools';

/** The schedule of a reminder's generation (EventBridge Scheduler: at most 64 of letters, digits, `-`, `_`, `.`). */
export const reminderScheduleName = (id: string, generation: number) => `rem-${id}-${generation}`;

/** What the scheduled-send worker receives for a reminder. */
export interface ReminderFire {
  orgId: string;
  transactionId: string;
  reminderId: string;
  generation: number;
}

/** A reminder request as the API takes it (every field nullable). */
export interface ReminderRequest {
  daysBeforeReminder?: number | null;
  deadlineDate?: string | null;
  deadlineType?: string | null;
  emailTemplateId?: string | null;
  milestoneId?: string | null;
  note?: string | null;
  recipientEmails?: string | null;
  recipientRoles?: string | null;
  reminderTimeOfDay?: string | null;
}

/** Comma- or semicolon-separated roles, trimmed, without duplicates. */
const splitRoles = (s: string | null | undefined) => [...new Set((s ?? '').split(/[,;]/).map((r) => r.trim()).filter(Boolean))];

/** The deadline a reminder counts down to on the deal as it is: its key date, else the fixed date. */
export const deadlineOf = (deal: Pick<Deal, 'keyDates'>, r: Pick<Reminder, 'deadlineType' | 'deadlineDate'>) =>
  (r.deadlineType && deal.keyDates.find((k) => k.keyDateType === r.deadlineType)?.dateValue) || r.deadlineDate;

/** The email of a reminder rendered against the deal as it is now. */
export async function renderReminder(orgId: string, deal: Deal, r: Reminder, templateField = 'emailTemplateId'): Promise<RenderedTemplate> {
  const t = await findEmailTemplate(orgId, r.emailTemplateId);
  if (!t) throw new InvalidInput({ [templateField]: 'is not an email template of this organization' });
  const label = r.deadlineType ? (deal.keyDates.find((k) => k.keyDateType === r.deadlineType)?.label ?? null) : null;
  const source = await mergeSourceOf(orgId, deal, {
    deadlineType: r.deadlineType ?? 'Deadline',
    deadlineLabel: label,
    deadlineDate: r.deadlineDate,
    daysBefore: r.daysBeforeReminder,
    note: r.note,
  });
  return renderWith(t, mergeFieldsOf(source), templateField);
}

/** The addresses a reminder goes to on the deal as it is: its roles' linked contacts with an email, and its addresses. */
export function recipientsOf(deal: Deal, r: Pick<Reminder, 'recipientRoles' | 'recipientEmails'>): { addresses: string[]; silentRoles: string[] } {
  const addresses = new Map<string, string>();
  const silentRoles: string[] = [];
  for (const role of r.recipientRoles) {
    const reached = deal.contacts.filter((c) => c.role === role && c.email);
    if (!reached.length) silentRoles.push(role);
    for (const c of reached) addresses.set(c.email!.toLowerCase(), c.email!);
  }
  for (const a of r.recipientEmails) addresses.set(a.toLowerCase(), a);
  return { addresses: [...addresses.values()], silentRoles };
}

/**
 * Creates a reminder and its schedule.
 * @throws NotFound for a deal that is absent or another organization's
 * @throws InvalidInput for the deadline, days, time of day, recipients or template (a merge field it uses with no
 *   value on the deal, too), or a time already past
 * @throws Conflict when a recipient's address is suppressed
 * @throws Unavailable when the scheduler refused (the reminder is left `failed`)
 */
export async function createReminder(actor: Actor, transactionId: string, input: ReminderRequest, now: Date): Promise<Reminder> {
  const deal = await getDeal(actor.orgId, transactionId);
  const errors: Record<string, string> = {};
  const deadlineType = input.deadlineType?.trim() || null;
  if (deadlineType && !/^[A-Za-z][A-Za-z0-9_-]*$/.test(deadlineType)) errors.deadlineType = 'must be a key-date type token (letters, digits, _ or -), e.g. ClosingDate';
  const keyDate = deadlineType ? deal.keyDates.find((k) => k.keyDateType === deadlineType) : undefined;
  const givenDate = input.deadlineDate ? input.deadlineDate.slice(0, 10) : null;
  if (keyDate && givenDate && givenDate !== keyDate.dateValue)
    errors.deadlineDate = `differs from the deal's ${deadlineType} (${keyDate.dateValue}); the reminder follows the key date, so leave deadlineDate out or give that date`;
  const deadlineDate = keyDate?.dateValue ?? givenDate;
  if (!deadlineDate && !errors.deadlineType)
    errors[deadlineType ? 'deadlineDate' : 'deadlineType'] = deadlineType ? `is required: the deal has no ${deadlineType} key date` : 'give deadlineType (a key-date type of the deal) or deadlineDate';
  const daysBefore = input.daysBeforeReminder ?? DEFAULT_DAYS_BEFORE;
  const timeOfDay = input.reminderTimeOfDay?.trim() ? parseTimeOfDay(input.reminderTimeOfDay) : DEFAULT_REMINDER_TIME;
  if (!timeOfDay) errors.reminderTimeOfDay = 'must be a time of day such as 09:00 or 4:30 pm';

  const roles = splitRoles(input.recipientRoles);
  for (const role of roles) {
    if (!deal.contacts.some((c) => c.role === role)) errors.recipientRoles = `"${role}" reaches nobody: no contact of this transaction has that role (roles match exactly)`;
    else if (!deal.contacts.some((c) => c.role === role && c.email)) errors.recipientRoles = `"${role}" reaches nobody: no contact with that role has an email address`;
  }
  const parsed = parseAddressList(input.recipientEmails);
  if (parsed.invalid.length) errors.recipientEmails = `not email addresses: ${parsed.invalid.join(', ')}`;
  else if (!roles.length && !parsed.addresses.length) errors.recipientRoles = 'give recipientRoles or recipientEmails: a reminder to nobody is not sent';
  else if (parsed.addresses.length > MAX_RECIPIENTS) errors.recipientEmails = `at most ${MAX_RECIPIENTS} addresses`;
  if (Object.keys(errors).length) throw new InvalidInput(errors);

  const timezone = await organizationTimezone(actor.orgId);
  const { local, sendAt } = reminderTime(deadlineDate!, daysBefore, timeOfDay!, timezone);
  if (Date.parse(sendAt) <= now.getTime() + 60_000)
    throw new InvalidInput({ daysBeforeReminder: `the reminder time ${local.slice(0, 16)} (${timezone}) has passed; choose fewer days before the deadline or a later time` });

  const templateRef = input.emailTemplateId ?? DEFAULT_REMINDER_TEMPLATE;
  const template = await findEmailTemplate(actor.orgId, templateRef);
  if (!template) throw new InvalidInput({ emailTemplateId: 'is not an email template of this organization' });
  const id = randomUUID();
  const r: Reminder = {
    id,
    transactionId: deal.id,
    status: 'pending',
    deadlineType,
    deadlineDate: deadlineDate!,
    daysBeforeReminder: daysBefore,
    reminderTimeOfDay: timeOfDay!,
    timezone,
    scheduledLocal: local,
    sendAt,
    emailTemplateId: template.id,
    recipientRoles: roles,
    recipientEmails: parsed.addresses,
    note: input.note?.trim() || null,
    milestoneId: input.milestoneId ?? null,
    generation: 1,
    createdBy: actor.userId,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    sentAt: null,
    sentMessageId: null,
    error: null,
  };
  // Checked now as it would render today: an unknown or valueless field is refused rather than sent blank later.
  const preview = await renderReminder(actor.orgId, deal, r);
  if (preview.unknownFields.length || preview.missingFields.length)
    throw new InvalidInput({ emailTemplateId: `the template uses merge fields this deal has no value for: ${[...preview.unknownFields, ...preview.missingFields].join(', ')}` });
  for (const address of recipientsOf(deal, r).addresses) {
    const suppressed = await findEmailSuppression(address);
    if (suppressed) throw new Conflict(`${address} is suppressed after a ${suppressed.reason} on ${suppressed.suppressedAt.slice(0, 10)}; it is not emailed again.`);
  }

  await transactWrite([reminderPut(actor.orgId, r)]);
  try {
    await (await scheduler()).create({ name: reminderScheduleName(r.id, 1), at: local, timezone, target: 'scheduled-send', payload: fireOf(actor.orgId, r) });
  } catch (err) {
    await updateReminder(actor.orgId, r, { from: 'pending', generation: 1 }, { status: 'failed', error: 'the scheduler refused the schedule', updatedAt: now.toISOString() });
    throw new Unavailable('The reminder could not be scheduled; retry.', { cause: err });
  }
  return r;
}

const fireOf = (orgId: string, r: Pick<Reminder, 'transactionId' | 'id' | 'generation'>): Record<string, unknown> & ReminderFire => ({
  orgId,
  transactionId: r.transactionId,
  reminderId: r.id,
  generation: r.generation,
});

/**
 * Moves a pending reminder to a new deadline: a new schedule first (generation + 1), then the reminder, then the old
 * schedule is deleted. A reminder whose new time has passed ends `expired`. Losing a race (another move, the send)
 * changes nothing: the new schedule is deleted again.
 * @returns the reminder as it now is, or undefined when it was not pending at that generation
 */
export async function moveReminder(orgId: string, r: Reminder, deadlineDate: string, now: Date): Promise<Reminder | undefined> {
  const { local, sendAt } = reminderTime(deadlineDate, r.daysBeforeReminder, r.reminderTimeOfDay, r.timezone);
  const sched = await scheduler();
  const at = { from: 'pending' as const, generation: r.generation };
  if (Date.parse(sendAt) <= now.getTime()) {
    const set = { status: 'expired' as const, deadlineDate, scheduledLocal: local, sendAt, updatedAt: now.toISOString(), error: `the deadline moved to ${deadlineDate}; the reminder time had passed` };
    if (!(await updateReminder(orgId, r, at, set))) return undefined;
    await sched.delete(reminderScheduleName(r.id, r.generation));
    return { ...r, ...set };
  }
  const generation = r.generation + 1;
  const next = { deadlineDate, scheduledLocal: local, sendAt, generation, updatedAt: now.toISOString() };
  await sched.create({ name: reminderScheduleName(r.id, generation), at: local, timezone: r.timezone, target: 'scheduled-send', payload: fireOf(orgId, { ...r, generation }) });
  if (!(await updateReminder(orgId, r, at, next))) {
    await sched.delete(reminderScheduleName(r.id, generation));
    return undefined;
  }
  await sched.delete(reminderScheduleName(r.id, r.generation));
  return { ...r, ...next };
}

/**
 * After key dates were written: moves the deal's pending reminders that follow a key date that changed. A failure
 * is logged, not thrown (the key dates are committed); the send re-checks the deadline and moves a stale reminder
 * then.
 * @param reminders the deal's reminders as read before the write
 * @param keyDates the key dates as written
 */
export async function followKeyDates(orgId: string, reminders: readonly Reminder[], keyDates: readonly { keyDateType: string; dateValue: string }[], now: Date): Promise<void> {
  const dates = new Map(keyDates.map((k) => [k.keyDateType, k.dateValue]));
  for (const r of reminders) {
    const date = r.deadlineType ? dates.get(r.deadlineType) : undefined;
    if (r.status !== 'pending' || !date || date === r.deadlineDate) continue;
    try {
      await moveReminder(orgId, r, date, now);
    } catch (err) {
      logger.error('reminder not moved with its key date; the send will move it', { reminderId: r.id, error: err instanceof Error ? err.message : String(err) });
    }
  }
}
