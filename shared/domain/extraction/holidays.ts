/**
 * Legal-holiday calendars used by contract key-date math (calendar dates `YYYY-MM-DD`, UTC, no time zones).
 *
 * Two calendars, unioned for a Texas contract:
 *
 * 1. **US federal** — 5 U.S.C. §6103(a): New Year's Day (Jan 1), Birthday of Martin Luther King, Jr. (third
 *    Monday in January), Washington's Birthday (third Monday in February), Memorial Day (last Monday in May),
 *    Juneteenth National Independence Day (June 19, from 2021), Independence Day (July 4), Labor Day (first
 *    Monday in September), Columbus Day (second Monday in October), Veterans Day (Nov 11), Thanksgiving Day
 *    (fourth Thursday in November), Christmas Day (Dec 25). Observed days per §6103(b) and Executive Order
 *    11582: a holiday on a Saturday is observed the Friday before (so New Year's Day on a Saturday is
 *    observed Dec 31 of the previous year); on a Sunday, the Monday after. Both the actual and the observed
 *    day count as holidays.
 *
 * 2. **Texas** — Texas Government Code §662.003, limited to the days on which state offices close:
 *    - every national holiday of §662.003(a): New Year's Day, Martin Luther King, Jr., Day, Presidents' Day,
 *      Memorial Day, Independence Day, Labor Day, Veterans Day, Thanksgiving Day, Christmas Day (already in
 *      the federal list; Texas has no Columbus Day and does not move a weekend holiday to a weekday — the
 *      Comptroller's payroll guide: holidays on Saturday or Sunday "are not observed on another day");
 *    - the state holidays of §662.003(b) that §662.004(b) exempts from the skeleton-crew rule, i.e. on which
 *      offices may close: the Friday after Thanksgiving Day (b)(6), December 24 (b)(7), December 26 (b)(8).
 *    Left out on purpose: Confederate Heroes Day (Jan 19), Texas Independence Day (Mar 2), San Jacinto Day
 *    (Apr 21), Emancipation Day in Texas (Jun 19) and Lyndon Baines Johnson Day (Aug 27) are state holidays on
 *    which agencies must stay open with a skeleton crew (§662.004(a)); June 19 is nevertheless a holiday here
 *    through the federal Juneteenth. Optional holidays (§662.003(c): Rosh Hashanah, Yom Kippur, Good Friday;
 *    §662.013 Cesar Chavez Day) are not included.
 */
import { addDays } from '#domain/calendar';

/** One holiday occurrence. `date` is `YYYY-MM-DD`; `source` names the statute that makes it a holiday. */
export interface Holiday {
  date: string;
  name: string;
  source: '5 U.S.C. 6103' | 'Tex. Gov. Code 662.003';
}

/** Which holiday calendar applies: federal only, or federal plus Texas (a Texas contract). */
export type HolidayJurisdiction = 'US' | 'TX';

const pad = (n: number): string => String(n).padStart(2, '0');
const ymd = (year: number, month: number, day: number): string => `${year}-${pad(month)}-${pad(day)}`;

/** Day of week of a `YYYY-MM-DD` date: 0 = Sunday … 6 = Saturday. */
export const weekday = (date: string): number => new Date(`${date}T00:00:00Z`).getUTCDay();

/** English weekday name of a `YYYY-MM-DD` date (e.g. "Saturday"). */
export const weekdayName = (date: string): string =>
  ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'][weekday(date)];

/** The `n`-th (1-based) given weekday (0 = Sunday) of a month (1–12). */
export const nthWeekday = (year: number, month: number, dow: number, n: number): string => {
  const first = ymd(year, month, 1);
  const offset = (dow - weekday(first) + 7) % 7;
  return addDays(first, offset + 7 * (n - 1));
};

/** The last given weekday (0 = Sunday) of a month (1–12). */
export const lastWeekday = (year: number, month: number, dow: number): string => {
  const nextMonthFirst = month === 12 ? ymd(year + 1, 1, 1) : ymd(year, month + 1, 1);
  const last = addDays(nextMonthFirst, -1);
  return addDays(last, -((weekday(last) - dow + 7) % 7));
};

/**
 * Federal holidays of one year with their observed days (5 U.S.C. §6103(a), observed per §6103(b) and
 * E.O. 11582). Includes the observed day of the next year's New Year's Day when it falls on Dec 31 of `year`.
 * Sorted by date.
 */
export function federalHolidays(year: number): Holiday[] {
  const source = '5 U.S.C. 6103' as const;
  const fixed = (y: number, month: number, day: number, name: string): Holiday[] => {
    const date = ymd(y, month, day);
    const out: Holiday[] = [{ date, name, source }];
    const dow = weekday(date);
    if (dow === 6) out.push({ date: addDays(date, -1), name: `${name} (observed)`, source });
    if (dow === 0) out.push({ date: addDays(date, 1), name: `${name} (observed)`, source });
    return out;
  };
  const list: Holiday[] = [
    ...fixed(year, 1, 1, "New Year's Day"),
    { date: nthWeekday(year, 1, 1, 3), name: 'Birthday of Martin Luther King, Jr.', source },
    { date: nthWeekday(year, 2, 1, 3), name: "Washington's Birthday", source },
    { date: lastWeekday(year, 5, 1), name: 'Memorial Day', source },
    ...(year >= 2021 ? fixed(year, 6, 19, 'Juneteenth National Independence Day') : []),
    ...fixed(year, 7, 4, 'Independence Day'),
    { date: nthWeekday(year, 9, 1, 1), name: 'Labor Day', source },
    { date: nthWeekday(year, 10, 1, 2), name: 'Columbus Day', source },
    ...fixed(year, 11, 11, 'Veterans Day'),
    { date: nthWeekday(year, 11, 4, 4), name: 'Thanksgiving Day', source },
    ...fixed(year, 12, 25, 'Christmas Day'),
    // Next year's New Year's Day on a Saturday is observed on Dec 31 of this year.
    ...fixed(year + 1, 1, 1, "New Year's Day").filter((h) => h.date.startsWith(`${year}-`)),
  ];
  // The observed day of this year's New Year's Day may fall in the previous year: keep only this year's dates.
  return list.filter((h) => h.date.startsWith(`${year}-`)).sort((a, b) => a.date.localeCompare(b.date));
}

/**
 * Texas holidays on which state offices close (Tex. Gov. Code §662.003(a) national holidays and the
 * §662.003(b)(6)–(8) state holidays exempt from §662.004's skeleton-crew rule), on their actual dates only
 * (no weekend substitution). Sorted by date.
 */
export function texasHolidays(year: number): Holiday[] {
  const source = 'Tex. Gov. Code 662.003' as const;
  const thanksgiving = nthWeekday(year, 11, 4, 4);
  return [
    { date: ymd(year, 1, 1), name: "New Year's Day", source },
    { date: nthWeekday(year, 1, 1, 3), name: 'Martin Luther King, Jr., Day', source },
    { date: nthWeekday(year, 2, 1, 3), name: "Presidents' Day", source },
    { date: lastWeekday(year, 5, 1), name: 'Memorial Day', source },
    { date: ymd(year, 7, 4), name: 'Independence Day', source },
    { date: nthWeekday(year, 9, 1, 1), name: 'Labor Day', source },
    { date: ymd(year, 11, 11), name: 'Veterans Day', source },
    { date: thanksgiving, name: 'Thanksgiving Day', source },
    { date: addDays(thanksgiving, 1), name: 'Friday after Thanksgiving Day', source },
    { date: ymd(year, 12, 24), name: 'December 24', source },
    { date: ymd(year, 12, 25), name: 'Christmas Day', source },
    { date: ymd(year, 12, 26), name: 'December 26', source },
  ].sort((a, b) => a.date.localeCompare(b.date));
}

/** All legal holidays of a year for a jurisdiction (`US`: federal; `TX`: federal ∪ Texas), sorted by date. */
export function legalHolidays(year: number, jurisdiction: HolidayJurisdiction = 'TX'): Holiday[] {
  const list = jurisdiction === 'TX' ? [...federalHolidays(year), ...texasHolidays(year)] : federalHolidays(year);
  return list.sort((a, b) => a.date.localeCompare(b.date) || a.source.localeCompare(b.source));
}

/** The holidays falling on `date` (empty when it is not a legal holiday in the jurisdiction). */
export function holidaysOn(date: string, jurisdiction: HolidayJurisdiction = 'TX'): Holiday[] {
  return legalHolidays(Number(date.slice(0, 4)), jurisdiction).filter((h) => h.date === date);
}

/** True when `date` is a legal holiday in the jurisdiction. */
export const isLegalHoliday = (date: string, jurisdiction: HolidayJurisdiction = 'TX'): boolean =>
  holidaysOn(date, jurisdiction).length > 0;

/** Why a date is not a business day: "Saturday", "Sunday", a holiday name, or null for a business day. */
export function nonBusinessReason(date: string, jurisdiction: HolidayJurisdiction = 'TX'): string | null {
  const dow = weekday(date);
  if (dow === 6) return 'Saturday';
  if (dow === 0) return 'Sunday';
  const hit = holidaysOn(date, jurisdiction)[0];
  return hit ? `legal holiday (${hit.name})` : null;
}

/**
 * The first day on or after `date` that is not a Saturday, Sunday, or legal holiday. Returns the same date
 * when it already is one.
 */
export function nextBusinessDay(date: string, jurisdiction: HolidayJurisdiction = 'TX'): string {
  let d = date;
  while (nonBusinessReason(d, jurisdiction) !== null) d = addDays(d, 1);
  return d;
}
