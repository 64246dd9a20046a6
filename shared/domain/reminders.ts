/**
 * When a deadline reminder fires: `daysBefore` calendar days before the deadline, at a time of day in the
 * organization's time zone, applying the zone's rules as EventBridge Scheduler's `ScheduleExpressionTimezone` does
 * (the platform's IANA database through `Intl`, no date library: the key-date functions bundle this). A time skipped
 * by a daylight-saving change is taken with the offset before the change (02:30 → 03:30 on the spring-forward day);
 * a repeated one (fall back) is its first occurrence.
 */
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
  return { local: `${day}T${timeOfDay}:00`, sendAt: new Date(zonedInstant(day, timeOfDay, timezone)).toISOString() };
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The zone's UTC offset at an instant, in minutes (UTC−6 → −360). @throws RangeError for an unknown zone */
export function zoneOffsetMinutes(instantMs: number, timezone: string): number {
  let f = formats.get(timezone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: timezone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    formats.set(timezone, f);
  }
  const n: Record<string, number> = {};
  for (const p of f.formatToParts(new Date(instantMs))) if (p.type !== 'literal') n[p.type] = Number(p.value);
  const wall = Date.UTC(n.year, n.month - 1, n.day, n.hour, n.minute, n.second);
  return Math.round((wall - Math.floor(instantMs / 1000) * 1000) / 60_000);
}

/**
 * The instant (epoch ms) of a wall-clock time in a zone.
 * @param day `YYYY-MM-DD`
 * @param time `HH:mm`
 */
export function zonedInstant(day: string, time: string, timezone: string): number {
  const [y, m, d] = day.split('-').map(Number);
  const [hh, mm] = time.split(':').map(Number);
  const wall = Date.UTC(y, m - 1, d, hh, mm);
  // The offsets half a day either side cover any one transition; the one that maps back to the wall time wins.
  const before = zoneOffsetMinutes(wall - 43_200_000, timezone);
  const after = zoneOffsetMinutes(wall + 43_200_000, timezone);
  for (const o of [before, after]) {
    const instant = wall - o * 60_000;
    if (zoneOffsetMinutes(instant, timezone) === o) return instant;
  }
  return wall - before * 60_000;
}
