/**
 * When a deadline reminder fires: `daysBefore` calendar days before the deadline, at a time of day in the
 * organization's time zone (luxon applies the zone's rules, as EventBridge Scheduler's `ScheduleExpressionTimezone`
 * does; a time skipped by a daylight-saving change fires at the first instant after the gap).
 */
import { DateTime } from 'luxon';
import { addDays } from '#domain/calendar';

/** The time of day a reminder fires when the request gives none. */
export const DEFAULT_REMINDER_TIME = '09:00';
/** Days before the deadline when the request gives none. */
export const DEFAULT_DAYS_BEFORE = 1;

const TIME_OF_DAY = /^([01]\d|2[0-3]):([0-5]\d)$/;

/**
 * A time of day as `HH:mm` (24-hour), from `HH:mm`, `H:mm`, `HH:mm:ss` or `h:mm am`/`h:mm pm`.
 * @returns undefined when it is none of these
 */
export function parseTimeOfDay(text: string): string | undefined {
  const t = text.trim().toLowerCase();
  const m = /^(\d{1,2}):(\d{2})(?::00)?\s*(am|pm|a\.m\.|p\.m\.)?$/.exec(t);
  if (!m) return undefined;
  let h = Number(m[1]);
  if (m[3]) {
    if (h < 1 || h > 12) return undefined;
    h = (h % 12) + (m[3].startsWith('p') ? 12 : 0);
  }
  const out = `${String(h).padStart(2, '0')}:${m[2]}`;
  return TIME_OF_DAY.test(out) ? out : undefined;
}

/**
 * The send time of a reminder.
 * @param deadline calendar date `YYYY-MM-DD`
 * @param timeOfDay `HH:mm`
 * @param timezone IANA zone (valid)
 * @returns the wall-clock time `YYYY-MM-DDTHH:mm:ss` in the zone and the instant (ISO UTC)
 */
export function reminderTime(deadline: string, daysBefore: number, timeOfDay: string, timezone: string): { local: string; sendAt: string } {
  const day = addDays(deadline, -daysBefore);
  const t = DateTime.fromISO(`${day}T${timeOfDay}`, { zone: timezone });
  return { local: `${day}T${timeOfDay}:00`, sendAt: t.toUTC().toISO()! };
}
