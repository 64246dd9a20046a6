import { describe, expect, it } from 'vitest';
import { parseAddress, parseDate, parseDays, parseMoney, splitNames } from '#domain/extraction/normalize';

describe('parseMoney', () => {
  it.each([
    ['425,000.00', 425000],
    ['$ 5,000.00', 5000],
    ['........................... $ 85,000.00', 85000],
    ['S250.00', 250],
    ['1,234.5', 1234.5],
    ['425000', 425000],
    ['$ 4Z5,OOO.OO', 425000],
    ['12,345,678.90', 12345678.9],
    ['$10,000.00 to be deposited within 3 days', 10000],
    ['within 3 days: S 2,500', 2500],
  ])('%s → %d', (text, value) => expect(parseMoney(text)).toBe(value));

  it('returns null without digits', () => expect(parseMoney('as earnest money')).toBeNull());
});

describe('parseDays', () => {
  it.each([
    ['5', 5],
    ['l0', 10],
    ['ten (10) days', 10],
  ])('%s → %d', (text, n) => expect(parseDays(text)).toBe(n));
  it('returns null for no number', () => expect(parseDays('days')).toBeNull());
});

describe('parseDate', () => {
  it.each([
    ['20th day of July, 2025', '2025-07-20'],
    ['20thday of July, 20 25', '2025-07-20'],
    ['1st day of March, 20 26', '2026-03-01'],
    ['August 29, 20 25', '2025-08-29'],
    ['August 29, 2025', '2025-08-29'],
    ['Sept. 2, 2025', '2025-09-02'],
    ['2 September 2025', '2025-09-02'],
    ['07/20/2025', '2025-07-20'],
    ['7-20-25', '2025-07-20'],
    ['2025-07-20', '2025-07-20'],
    ['July 2O, 2025', '2025-07-20'],
  ])('%s → %s', (text, iso) => expect(parseDate(text)).toBe(iso));

  it.each([['February 30, 2025'], ['July, 20'], ['20th day of , 20 25'], ['soon']])('%s → null', (text) =>
    expect(parseDate(text)).toBeNull(),
  );
});

describe('splitNames', () => {
  it.each([
    ['Ann Lee and David Lee', ['Ann Lee', 'David Lee']],
    ['Ann Lee & David Lee', ['Ann Lee', 'David Lee']],
    ['Ann Lee, David Lee, and Kim Lee', ['Ann Lee', 'David Lee', 'Kim Lee']],
    ['John Smith, Jr. and Mary Smith', ['John Smith, Jr.', 'Mary Smith']],
    ['Oak Holdings, LLC', ['Oak Holdings, LLC']],
    ['Ann Lee\nDavid Lee', ['Ann Lee', 'David Lee']],
    ['Alexandra Montgomery-Fitzgerald', ['Alexandra Montgomery-Fitzgerald']],
  ])('%s', (text, names) => expect(splitNames(text)).toEqual(names));
});

describe('parseAddress', () => {
  it('splits street, city, state and zip', () => {
    expect(parseAddress('1234 Oak Hollow Dr, Austin, TX 78701')).toEqual({
      street: '1234 Oak Hollow Dr',
      city: 'Austin',
      state: 'TX',
      zip: '78701',
    });
  });
  it('accepts "Texas", ZIP+4 and no commas before the state', () => {
    expect(parseAddress('9 Elm St, San Antonio Texas 78205-1234')).toEqual({
      street: '9 Elm St',
      city: 'San Antonio',
      state: 'TX',
      zip: '78205-1234',
    });
  });
  it('leaves the state null when the line names none', () => {
    expect(parseAddress('1234 Oak Hollow Dr, Austin 78701')).toEqual({ street: '1234 Oak Hollow Dr', city: 'Austin', state: null, zip: '78701' });
  });
  it('keeps a street-only line as the street', () => {
    expect(parseAddress('1234 Oak Hollow Dr')).toEqual({ street: '1234 Oak Hollow Dr', city: null, state: null, zip: null });
  });
});
