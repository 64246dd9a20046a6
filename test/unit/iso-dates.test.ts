/**
 * Strict date and date-time parsing (shared/domain/iso-dates.ts, RFC 3339 §5.6): impossible calendar values
 * and clock values are refused, the calendar-date part is kept as written, and the zod helpers use it.
 */
import { describe, expect, it } from 'vitest';
import { calendarDateOf, isIsoDateOrDateTime, MAX_DATE_TIME_LENGTH } from '#domain/iso-dates';
import { calendarDate, dateTime } from '#api/params';

describe('calendarDateOf', () => {
  it.each([
    ['2027-02-28', '2027-02-28'],
    ['2028-02-29', '2028-02-29'],
    ['2000-02-29', '2000-02-29'],
    ['1900-01-01', '1900-01-01'],
    ['2199-12-31', '2199-12-31'],
    ['2027-02-28T23:59:59Z', '2027-02-28'],
    ['2027-02-28T23:30:00-05:00', '2027-02-28'],
    ['2027-02-28t00:00:00z', '2027-02-28'],
    ['2027-02-28T00:00', '2027-02-28'],
    ['2027-02-28T10:00:00.123456789+14:00', '2027-02-28'],
    ['2027-02-28T10:00:00', '2027-02-28'],
  ])('accepts %s as %s', (text, date) => {
    expect(calendarDateOf(text)).toBe(date);
  });

  it.each([
    ['2027-02-30', 'no 30 February'],
    ['2027-02-29', 'not a leap year'],
    ['1900-02-29', 'century not divisible by 400'],
    ['2027-04-31', 'April has 30 days'],
    ['2027-13-01', 'month 13'],
    ['2027-00-10', 'month 0'],
    ['2027-01-00', 'day 0'],
    ['1899-12-31', 'before 1900'],
    ['2200-01-01', 'after 2199'],
    ['0000-01-01', 'year 0'],
    ['2027-02-28T25:00:00Z', 'hour 25'],
    ['2027-02-28T24:00:00Z', 'hour 24'],
    ['2027-02-28T23:60:00Z', 'minute 60'],
    ['2027-02-28T23:59:60Z', 'leap second'],
    ['2027-02-28T10:00:00+24:00', 'offset hour 24'],
    ['2027-02-28T10:00:00+05:60', 'offset minute 60'],
    ['2027-02-28T10:00:00+0530', 'offset without colon'],
    ['2027-02-28T10:00:00.1234567891Z', '10 fraction digits'],
    ['2027-02-28T10:00:00.Z', 'empty fraction'],
    ['2027-02-28Tnonsense', 'anything after T'],
    ['2027-02-28 10:00:00', 'space separator'],
    ['March 7, 2027', 'Date.parse-only form'],
    ['2027', 'year only'],
    ['2027-2-28', 'one-digit month'],
    ['+002027-02-28', 'expanded year'],
    [' 2027-02-28', 'leading space'],
    ['２０２７-02-28', 'full-width digits'],
    ['', 'empty'],
  ])('refuses %s (%s)', (text) => {
    expect(calendarDateOf(text)).toBeUndefined();
    expect(isIsoDateOrDateTime(text)).toBe(false);
  });

  it('refuses anything longer than the longest accepted form without scanning it', () => {
    expect(MAX_DATE_TIME_LENGTH).toBe('2027-02-28T10:00:00.123456789+14:00'.length);
    expect(calendarDateOf(`2027-02-28T10:00:00.${'1'.repeat(100_000)}Z`)).toBeUndefined();
  });
});

describe('zod helpers', () => {
  it('calendarDate outputs the date part and refuses impossible values with a message', () => {
    expect(calendarDate().parse('2027-02-28T23:30:00-05:00')).toBe('2027-02-28');
    const r = calendarDate().safeParse('2027-02-30');
    expect(r.success).toBe(false);
    expect(r.error!.issues[0].message).toBe('is not a real calendar date');
  });

  it('dateTime keeps a valid value as written and refuses impossible or non-ISO ones', () => {
    expect(dateTime().parse('2027-02-28T10:00:00Z')).toBe('2027-02-28T10:00:00Z');
    for (const bad of ['2027-02-28T25:00:00Z', '2027-02-30T10:00:00Z', 'March 7, 2027', 'x'.repeat(36)]) expect(dateTime().safeParse(bad).success, bad).toBe(false);
  });
});
