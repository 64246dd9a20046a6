/**
 * Deadline reminders (spec "Transactions": `POST .../reminders`): an email N days before a deadline at a time of day
 * in the organization's time zone, to recipients by role and/or address, written from an email template.
 *
 * - Built on the scheduled-send machinery: a one-time schedule (EventBridge Scheduler; the local scheduler here),
 *   requested through the outbox (shared/use-cases/schedule-requests.ts), invokes the scheduled-send worker with
 *   `{orgId, transactionId, reminderId, generation}`.
 * - A reminder naming a key-date type follows that key date: when the date moves (key-date writes, the status
 *   cascade, applying a contract) it gets a new schedule (generation + 1) and the old one is deleted, both requested
 *   with the move. A reminder whose new time has passed (or is less than a minute away) ends `expired`, unsent.
 * - Sending is in shared/use-cases/reminder-send.ts (only the scheduled-send worker bundles the mail transport).
 */
import { randomUUID } from 'node:crypto';
import { reminderPut, type Reminder } from '#db/reminders';
import { reminderScheduleRequest } from '#use-cases/reminder-schedule';
import { organizationTimezone } from '#db/orgs';
import { getDeal, type Deal } from '#db/transactions';
import { transactWrite } from '#db/transact';
import type { Actor } from '#events/outbox';
import { Conflict, InvalidInput } from '#domain/errors';
import { MAX_RECIPIENTS, parseAddressList } from '#domain/email-addresses';
import { mergeFieldsOf, type MergeField } from '#domain/merge-fields';
import { DEFAULT_DAYS_BEFORE, DEFAULT_REMINDER_TIME, parseTimeOfDay, reminderTime } from '#domain/reminders';
import { DEFAULT_REMINDER_TEMPLATE } from '#domain/system-email-templates';
import { blankFields, findEmailTemplate, mergeSourceOf } from '#use-cases/email-templates';
import { findEmailSuppression } from '#db/consent';

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

/** The merge fields of a reminder's email on the deal as it is now (its `reminder.*` fields included). */
export async function reminderMergeFields(orgId: string, deal: Deal, r: Reminder): Promise<MergeField[]> {
  const label = r.deadlineType ? (deal.keyDates.find((k) => k.keyDateType === r.deadlineType)?.label ?? null) : null;
  const source = await mergeSourceOf(orgId, deal, {
    deadlineType: r.deadlineType ?? 'Deadline',
    deadlineLabel: label,
    deadlineDate: r.deadlineDate,
    daysBefore: r.daysBeforeReminder,
    note: r.note,
  });
  return mergeFieldsOf(source);
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
 * Creates a reminder, `pending`, with the `schedule.requested` event of its first schedule in one transaction (the
 * outbox relay creates it; one it cannot create leaves the reminder `failed` with an `error`).
 * @throws NotFound for a deal that is absent or another organization's
 * @throws InvalidInput for the deadline, days, time of day, recipients or template (a merge field it uses with no
 *   value on the deal, too), or a time already past
 * @throws Conflict when a recipient's address is suppressed
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
  const blank = blankFields(template, await reminderMergeFields(actor.orgId, deal, r));
  if (blank.length) throw new InvalidInput({ emailTemplateId: `the template uses merge fields this deal has no value for: ${blank.join(', ')}` });
  for (const address of recipientsOf(deal, r).addresses) {
    const suppressed = await findEmailSuppression(address);
    if (suppressed) throw new Conflict(`${address} is suppressed after a ${suppressed.reason} on ${suppressed.suppressedAt.slice(0, 10)}; it is not emailed again.`);
  }

  await transactWrite([reminderPut(actor.orgId, r), reminderScheduleRequest(actor.orgId, r, now)]);
  return r;
}
