/** Calendar-date arithmetic on `YYYY-MM-DD` strings across month, year and leap-year boundaries. */
import { describe, expect, it } from 'vitest';
import { addDays, dateOf, daysBetween } from '#domain/calendar';

describe('addDays', () => {
  it.each([
    ['2028-02-28', 1, '2028-02-29'],
    ['2028-02-29', 1, '2028-03-01'],
    ['2027-02-28', 1, '2027-03-01'],
    ['2100-02-28', 1, '2100-03-01'],
    ['2000-02-28', 1, '2000-02-29'],
    ['2026-12-31', 1, '2027-01-01'],
    ['2026-01-31', 30, '2026-03-02'],
    ['2028-03-01', -1, '2028-02-29'],
    ['2027-01-01', -1, '2026-12-31'],
    ['2026-03-08', 0, '2026-03-08'],
    ['2026-01-01', 365, '2027-01-01'],
    ['2028-01-01', 365, '2028-12-31'],
  ])('%s + %i = %s', (date, days, expected) => {
    expect(addDays(date, days)).toBe(expected);
  });
});

describe('daysBetween', () => {
  it('counts whole days, negative when the second date is earlier', () => {
    expect(daysBetween('2028-02-01', '2028-03-01')).toBe(29);
    expect(daysBetween('2027-02-01', '2027-03-01')).toBe(28);
    expect(daysBetween('2026-12-25', '2027-01-05')).toBe(11);
    expect(daysBetween('2027-01-05', '2026-12-25')).toBe(-11);
    expect(daysBetween('2026-06-15', '2026-06-15')).toBe(0);
  });

  it('is unaffected by daylight-saving changes (US DST starts 2026-03-08)', () => {
    expect(daysBetween('2026-03-07', '2026-03-09')).toBe(2);
    expect(addDays('2026-03-07', 2)).toBe('2026-03-09');
  });

  it('inverts addDays', () => {
    for (const n of [-400, -29, -1, 0, 1, 59, 366, 1000]) expect(daysBetween('2028-02-29', addDays('2028-02-29', n))).toBe(n);
  });
});

describe('dateOf', () => {
  it('takes the UTC calendar date of an instant', () => {
    expect(dateOf(new Date('2026-03-14T23:59:59.999Z'))).toBe('2026-03-14');
    expect(dateOf(new Date('2026-03-14T23:30:00-05:00'))).toBe('2026-03-15');
  });
});
