/**
 * Calendar-date arithmetic on `YYYY-MM-DD` strings. Key dates are calendar dates, not timestamps, so all
 * math is in whole days on the proleptic Gregorian calendar in UTC, with no time-zone conversion.
 */

const DAY_MS = 86_400_000;

/** Epoch day number of a `YYYY-MM-DD` date. */
export const dayNumber = (date: string): number => Date.parse(`${date}T00:00:00Z`) / DAY_MS;

/** The date `days` days after `date` (negative goes back). */
export const addDays = (date: string, days: number): string =>
  new Date((dayNumber(date) + days) * DAY_MS).toISOString().slice(0, 10);

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export const daysBetween = (from: string, to: string): number => dayNumber(to) - dayNumber(from);

/** The UTC calendar date of an instant. */
export const dateOf = (instant: Date): string => instant.toISOString().slice(0, 10);
