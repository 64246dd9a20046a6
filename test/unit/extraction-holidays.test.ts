import { describe, expect, it } from 'vitest';
import {
  federalHolidays,
  holidaysOn,
  isLegalHoliday,
  legalHolidays,
  nextBusinessDay,
  nonBusinessReason,
  texasHolidays,
} from '#domain/extraction/holidays';

const dates = (hs: { date: string }[]) => hs.map((h) => h.date);

describe('federal holidays (5 U.S.C. 6103)', () => {
  it('lists the eleven holidays of 2025 on their dates', () => {
    expect(dates(federalHolidays(2025))).toEqual([
      '2025-01-01',
      '2025-01-20',
      '2025-02-17',
      '2025-05-26',
      '2025-06-19',
      '2025-07-04',
      '2025-09-01',
      '2025-10-13',
      '2025-11-11',
      '2025-11-27',
      '2025-12-25',
    ]);
  });

  it('puts Thanksgiving 2026 on Thursday 2026-11-26', () => {
    expect(federalHolidays(2026).find((h) => h.name === 'Thanksgiving Day')?.date).toBe('2026-11-26');
  });

  it('observes Christmas 2027 (a Saturday) on Friday 2027-12-24', () => {
    const h = holidaysOn('2027-12-24', 'US');
    expect(h.map((x) => x.name)).toEqual(['Christmas Day (observed)']);
  });

  it('observes New Year 2022 (a Saturday) on Friday 2021-12-31, in 2021', () => {
    expect(dates(federalHolidays(2021))).toContain('2021-12-31');
    expect(dates(federalHolidays(2022))).not.toContain('2021-12-31');
    expect(isLegalHoliday('2021-12-31', 'US')).toBe(true);
  });

  it('moves a Sunday holiday to Monday (Juneteenth 2022 → 2022-06-20) and a Saturday one to Friday (July 4 2026 → 2026-07-03)', () => {
    expect(holidaysOn('2022-06-20', 'US')[0]?.name).toBe('Juneteenth National Independence Day (observed)');
    expect(holidaysOn('2026-07-03', 'US')[0]?.name).toBe('Independence Day (observed)');
    expect(holidaysOn('2028-11-10', 'US')[0]?.name).toBe('Veterans Day (observed)');
  });

  it('has no Juneteenth before 2021', () => {
    expect(dates(federalHolidays(2020))).not.toContain('2020-06-19');
  });
});

describe('Texas holidays (Gov. Code 662.003, office-closing days)', () => {
  it('adds the Friday after Thanksgiving, December 24 and December 26', () => {
    expect(dates(texasHolidays(2025))).toEqual(
      expect.arrayContaining(['2025-11-28', '2025-12-24', '2025-12-26']),
    );
    expect(isLegalHoliday('2025-11-28', 'TX')).toBe(true);
    expect(isLegalHoliday('2025-11-28', 'US')).toBe(false);
  });

  it('has no Columbus Day (not a §662.003(a) national holiday) but the federal list does', () => {
    expect(dates(texasHolidays(2025))).not.toContain('2025-10-13');
    expect(isLegalHoliday('2025-10-13', 'TX')).toBe(true); // TX calendar = federal ∪ Texas
  });

  it('leaves out the skeleton-crew state holidays', () => {
    expect(isLegalHoliday('2027-01-19', 'TX')).toBe(false); // Confederate Heroes Day (Tuesday)
    expect(isLegalHoliday('2025-03-03', 'TX')).toBe(false); // not moved from Sunday March 2
    expect(isLegalHoliday('2026-03-02', 'TX')).toBe(false); // Texas Independence Day (Monday)
    expect(isLegalHoliday('2025-04-21', 'TX')).toBe(false); // San Jacinto Day (Monday)
    expect(isLegalHoliday('2025-08-27', 'TX')).toBe(false); // LBJ Day (Wednesday)
  });

  it('unions both calendars, sorted', () => {
    const all = dates(legalHolidays(2025, 'TX'));
    expect(all).toEqual([...all].sort());
    expect(all).toContain('2025-12-26');
  });
});

describe('business days', () => {
  it('names why a day is not a business day', () => {
    expect(nonBusinessReason('2025-07-26')).toBe('Saturday');
    expect(nonBusinessReason('2025-07-27')).toBe('Sunday');
    expect(nonBusinessReason('2025-07-04')).toBe('legal holiday (Independence Day)');
    expect(nonBusinessReason('2025-07-07')).toBeNull();
  });

  it('skips weekends and holiday runs', () => {
    expect(nextBusinessDay('2025-07-26')).toBe('2025-07-28');
    expect(nextBusinessDay('2026-11-26')).toBe('2026-11-30'); // Thanksgiving, Friday after, weekend
    expect(nextBusinessDay('2027-12-24')).toBe('2027-12-27'); // Dec 24, Christmas Sat, Dec 26 Sun
    expect(nextBusinessDay('2025-07-07')).toBe('2025-07-07');
  });
});
