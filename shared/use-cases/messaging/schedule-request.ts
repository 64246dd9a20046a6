/**
 * What a scheduled-email request must hold (spec "Messaging": `POST .../scheduled-messages`, every field nullable):
 * recipients, a subject and a body, a wall-clock time in an IANA time zone (the platform's time-zone database through
 * `Intl`, shared/domain/reminders.ts, applies the zone's rules as EventBridge Scheduler's
 * `ScheduleExpressionTimezone` does), and documents of the deal.
 */
import { findDocument } from '#db/documents';
import type { ScheduledEmail } from '#db/scheduled-messages';
import type { Actor } from '#events/outbox';
import { InvalidInput } from '#domain/errors';
import { dictOf } from '#domain/dict';
import { zonedInstant, zoneOffsetMinutes } from '#domain/reminders';
import { parseRecipientFields, type RecipientFields } from '#domain/email-addresses';
import { assertNotSuppressed, senderOf } from '#use-cases/messaging/send-email';

/** How far ahead a message can be scheduled. */
export const MAX_SCHEDULE_DAYS = 365;

/** `YYYY-MM-DDTHH:mm[:ss[.fff]]` with an optional offset (`Z`, `±HH:mm`, `±HHmm`): ISO 8601's extended form. */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** True for an IANA zone name the platform knows (`America/Chicago`, `UTC`); not for an offset such as `+03:00`. */
export function isIanaTimeZone(timezone: string): boolean {
  if (!/^[A-Za-z]/.test(timezone)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/** `YYYY-MM-DDTHH:mm:ss` of an instant (epoch ms) on the wall clocks of a zone. */
function wallClock(instantMs: number, timezone: string): string {
  return new Date(instantMs + zoneOffsetMinutes(instantMs, timezone) * 60_000).toISOString().slice(0, 19);
}

/**
 * Checks the request's time: a wall-clock time (`YYYY-MM-DDTHH:mm[:ss]`, or an ISO date-time with an offset, whose
 * instant is then shown in the zone) in an IANA zone, at least a minute ahead and at most a year. A wall-clock time
 * repeated by a daylight-saving change (fall back) is its first occurrence; one skipped (spring forward) is refused.
 * @returns the wall-clock time (seconds precision) and the instant (ISO UTC, milliseconds)
 * @throws InvalidInput naming `scheduledAt` or `scheduledTimezone`
 */
export function scheduleTime(scheduledAt: string, timezone: string, now: Date): { local: string; sendAt: string } {
  if (!isIanaTimeZone(timezone)) throw new InvalidInput({ scheduledTimezone: 'is not an IANA time zone (e.g. America/Chicago)' });
  const m = DATE_TIME.exec(scheduledAt);
  const [y, mo, d, h, mi, s] = (m ?? []).slice(1, 7).map((v) => Number(v ?? 0));
  const day = m ? `${m[1]}-${m[2]}-${m[3]}` : '';
  const valid = m && h <= 23 && mi <= 59 && s <= 59 && new Date(Date.UTC(y, mo - 1, d)).toISOString().slice(0, 10) === day;
  if (!valid) throw new InvalidInput({ scheduledAt: 'must be a date and time, e.g. 2027-01-15T09:00' });
  const ms = Number(`0.${m[7] ?? 0}`) * 1000;
  const offset = m[8];
  let instant: number;
  if (offset) {
    const [, sign, oh, om] = /^([+-])(\d{2}):?(\d{2})$/.exec(offset) ?? ['', '+', '0', '0'];
    instant = Date.UTC(y, mo - 1, d, h, mi, s) + Math.floor(ms) - (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om)) * 60_000;
  } else {
    instant = zonedInstant(day, `${m[4]}:${m[5]}`, timezone) + s * 1000 + Math.floor(ms);
    // A wall-clock time skipped by a DST change does not exist there; it is not moved silently.
    if (wallClock(instant, timezone).slice(0, 16) !== scheduledAt.slice(0, 16)) throw new InvalidInput({ scheduledAt: `does not exist in ${timezone} (skipped by a daylight-saving change)` });
  }
  if (instant < now.getTime() + 60_000) throw new InvalidInput({ scheduledAt: 'must be at least one minute in the future' });
  if (instant > now.getTime() + MAX_SCHEDULE_DAYS * 86_400_000) throw new InvalidInput({ scheduledAt: `must be within ${MAX_SCHEDULE_DAYS} days` });
  return { local: wallClock(instant, timezone), sendAt: new Date(instant).toISOString() };
}

/** A schedule request as the API takes it (every field nullable; `scheduleDealEmail` checks them). */
export interface ScheduleRequest extends RecipientFields {
  scheduledAt?: string | null;
  scheduledTimezone?: string | null;
  subject?: string | null;
  body?: string | null;
  htmlBody?: string | null;
  fromAccountId?: string | null;
  /** Deal documents to attach, each optionally under another file name (an alternative to `documentIds`). */
  attachments?: { documentId: string; fileName?: string | null }[] | null;
  documentIds?: string[] | null;
  /** documentId → file name to attach it as. */
  documentFileNames?: Record<string, string> | null;
}

/**
 * The time, recipients and content of a request, checked now so a mistake is a 422 today rather than a failure at send
 * time: the addresses, the subject and a body, the time and zone (`scheduleTime`), the deal's documents, suppressed
 * addresses and the sender's mailbox.
 * @returns the wall-clock time, the instant, the zone and the email to store
 * @throws InvalidInput naming the offending fields
 * @throws Conflict when a recipient's address is suppressed
 */
export async function checkedEmail(actor: Actor, transactionId: string, input: ScheduleRequest, now: Date): Promise<{ local: string; sendAt: string; timezone: string; email: ScheduledEmail }> {
  const { to, cc, bcc, errors } = parseRecipientFields(input, true);
  if (!input.subject?.trim()) errors.subject = 'is required';
  if (!input.body?.trim() && !input.htmlBody?.trim()) errors.body = 'is required: give body, htmlBody or both';
  const at = input.scheduledAt?.trim();
  // An instant with an offset needs no zone (it is shown in UTC); a wall-clock time does.
  const timezone = input.scheduledTimezone?.trim() || (at && /(Z|[+-]\d{2}:?\d{2})$/.test(at) ? 'UTC' : '');
  if (!at) errors.scheduledAt = 'is required, e.g. 2027-01-15T09:00';
  else if (!timezone) errors.scheduledTimezone = 'is required for a wall-clock time, e.g. America/Chicago';
  if (Object.keys(errors).length) throw new InvalidInput(errors);
  const { local, sendAt } = scheduleTime(at!, timezone, now);
  const fileNames = dictOf(Object.entries(input.documentFileNames ?? {}));
  const documentIds = [...new Set([...(input.documentIds ?? []), ...(input.attachments ?? []).map((a) => a.documentId)])];
  for (const a of input.attachments ?? []) if (a.fileName) fileNames[a.documentId] = a.fileName;
  for (const [i, id] of documentIds.entries()) {
    const doc = await findDocument(actor.orgId, id);
    if (!doc || doc.transactionId !== transactionId) throw new InvalidInput({ [`documentIds[${i}]`]: 'is not a document of this transaction' });
  }
  await assertNotSuppressed([...to, ...cc, ...bcc]);
  await senderOf(actor, input.fromAccountId);
  const email: ScheduledEmail = {
    toEmail: to.join(', '),
    ccAddresses: cc.length ? cc.join(', ') : null,
    bccAddresses: bcc.length ? bcc.join(', ') : null,
    subject: input.subject!.trim(),
    body: input.body?.trim() ? input.body : null,
    htmlBody: input.htmlBody?.trim() ? input.htmlBody : null,
    fromAccountId: input.fromAccountId ?? null,
    documentIds,
    documentFileNames: dictOf(Object.entries(fileNames).filter(([id]) => documentIds.includes(id))),
  };
  return { local, sendAt, timezone, email };
}
