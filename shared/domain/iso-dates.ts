/**
 * Strict parsing of the date and date-time strings the API accepts: the RFC 3339 §5.6 profile of ISO 8601,
 * checked field by field, so a string that only looks like a date (`2027-02-30`, `T25:00:00Z`, `+24:00`) is
 * refused instead of being rolled over or kept. `Date.parse` is not used: it accepts other formats
 * (`March 7, 2027`) and rolls impossible days over in some engines.
 *
 * Accepted forms:
 * - calendar date `YYYY-MM-DD` (RFC 3339 `full-date`): a real Gregorian day (29 February only in a leap year);
 * - date-time `YYYY-MM-DDTHH:MM[:SS[.fraction]][Z|±HH:MM]`: hours 00–23, minutes and seconds 00–59 (a leap
 *   second `:60` is refused: no stored value can represent it), at most 9 fraction digits, offset hours 00–23
 *   and minutes 00–59; `T` and `Z` may be lower case (RFC 3339 §5.6 NOTE). ISO 8601's minute precision
 *   (`THH:MM`) is accepted as well.
 * - years 1900 through 2199 only: a real-estate date outside them is a typo, and date arithmetic past year
 *   9999 would leave the `YYYY-MM-DD` form.
 */

/** Earliest and latest accepted years (inclusive). */
export const MIN_YEAR = 1900;
export const MAX_YEAR = 2199;

/** Longest accepted date-time: `YYYY-MM-DDTHH:MM:SS.nnnnnnnnn+HH:MM` (35 characters). */
export const MAX_DATE_TIME_LENGTH = 35;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:[Zz]|([+-])(\d{2}):(\d{2}))?$/;

/** True for a leap year of the proleptic Gregorian calendar. */
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** Days in month `m` (1–12) of year `y`. */
const daysInMonth = (y: number, m: number) => (m === 2 ? (isLeap(y) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31);

function isRealDay(y: number, m: number, d: number): boolean {
  return y >= MIN_YEAR && y <= MAX_YEAR && m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m);
}

/**
 * The calendar date `YYYY-MM-DD` of a calendar date or date-time string, as written (no time-zone shift).
 * @returns the date part, or undefined when the string is not an accepted form or names an impossible value
 */
export function calendarDateOf(text: string): string | undefined {
  if (text.length > MAX_DATE_TIME_LENGTH) return undefined;
  const m = DATE.exec(text) ?? DATE_TIME.exec(text);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (!isRealDay(y, mo, d)) return undefined;
  if (m[4] !== undefined) {
    const [h, mi, s] = [Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
    if (h > 23 || mi > 59 || s > 59) return undefined;
    if (m[7] !== undefined && (Number(m[8]) > 23 || Number(m[9]) > 59)) return undefined;
  }
  return text.slice(0, 10);
}

/** True when `text` has the shape of an accepted form, whether or not its values are real (`2027-02-30` has). */
export const hasIsoDateShape = (text: string): boolean => text.length <= MAX_DATE_TIME_LENGTH && (DATE.test(text) || DATE_TIME.test(text));

/**
 * True when `text` is an accepted calendar date or date-time (see the module comment).
 * A date-time without an offset is read as UTC by the operations that need an instant.
 */
export const isIsoDateOrDateTime = (text: string): boolean => calendarDateOf(text) !== undefined;
