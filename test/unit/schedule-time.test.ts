/**
 * The time of a scheduled email (shared/use-cases/messaging/schedule-request.ts `scheduleTime`): a wall-clock time in
 * an IANA zone under the zone's daylight-saving rules (the platform's time-zone database through `Intl`), or an
 * instant with an offset shown in the zone; a minute to a year ahead. America/Chicago in 2027: CST (UTC−6) until
 * 14 March 02:00, CDT (UTC−5) until 7 November 02:00.
 */
import { describe, expect, it } from 'vitest';
import { InvalidInput } from '#domain/errors';
import { isIanaTimeZone, scheduleTime } from '#use-cases/messaging/schedule-request';

const NOW = new Date('2027-01-01T00:00:00Z');

/** The fields an invalid time is refused with. */
function refused(at: string, zone: string, now = NOW): Record<string, string> {
  try {
    scheduleTime(at, zone, now);
  } catch (err) {
    if (err instanceof InvalidInput) return err.fields;
    throw err;
  }
  throw new Error(`${at} in ${zone} was accepted`);
}

describe('scheduleTime', () => {
  it('applies the zone offset in force on the day (standard and daylight time)', () => {
    expect(scheduleTime('2027-01-15T09:00', 'America/Chicago', NOW)).toEqual({ local: '2027-01-15T09:00:00', sendAt: '2027-01-15T15:00:00.000Z' });
    expect(scheduleTime('2027-07-01T09:00', 'America/Chicago', NOW)).toEqual({ local: '2027-07-01T09:00:00', sendAt: '2027-07-01T14:00:00.000Z' });
    expect(scheduleTime('2027-01-15T09:00:45', 'Asia/Kolkata', NOW)).toEqual({ local: '2027-01-15T09:00:45', sendAt: '2027-01-15T03:30:45.000Z' });
    // Southern hemisphere: Sydney keeps daylight time (UTC+11) in January and standard time (UTC+10) in July.
    expect(scheduleTime('2027-01-15T09:00', 'Australia/Sydney', NOW).sendAt).toBe('2027-01-14T22:00:00.000Z');
    expect(scheduleTime('2027-07-15T09:00', 'Australia/Sydney', NOW).sendAt).toBe('2027-07-14T23:00:00.000Z');
  });

  it('refuses a time skipped by spring forward and takes the first of a time repeated by fall back', () => {
    expect(refused('2027-03-14T02:30', 'America/Chicago').scheduledAt).toMatch(/does not exist in America\/Chicago/);
    expect(scheduleTime('2027-03-14T03:30', 'America/Chicago', NOW).sendAt).toBe('2027-03-14T08:30:00.000Z');
    expect(scheduleTime('2027-11-07T01:30', 'America/Chicago', NOW)).toEqual({ local: '2027-11-07T01:30:00', sendAt: '2027-11-07T06:30:00.000Z' });
    expect(scheduleTime('2027-11-07T02:30', 'America/Chicago', NOW).sendAt).toBe('2027-11-07T08:30:00.000Z');
  });

  it('shows an instant given with an offset on the zone’s wall clock', () => {
    expect(scheduleTime('2027-01-15T15:00:00Z', 'America/Chicago', NOW)).toEqual({ local: '2027-01-15T09:00:00', sendAt: '2027-01-15T15:00:00.000Z' });
    expect(scheduleTime('2027-01-15T20:30+0530', 'UTC', NOW)).toEqual({ local: '2027-01-15T15:00:00', sendAt: '2027-01-15T15:00:00.000Z' });
    expect(scheduleTime('2027-07-01T09:00:00.250-05:00', 'America/Chicago', NOW)).toEqual({ local: '2027-07-01T09:00:00', sendAt: '2027-07-01T14:00:00.250Z' });
    // An instant in the repeated hour keeps its own offset: 01:30 CST is the second 01:30.
    expect(scheduleTime('2027-11-07T01:30-06:00', 'America/Chicago', NOW)).toEqual({ local: '2027-11-07T01:30:00', sendAt: '2027-11-07T07:30:00.000Z' });
  });

  it('refuses what is not a date and time, naming scheduledAt', () => {
    for (const at of ['2027-02-30T09:00', '2027-01-15T24:00', '2027-01-15T09:60', '2027-01-15', 'tomorrow 9am', '2027-01-15 09:00', '2027-01-15T09:00+5'])
      expect(Object.keys(refused(at, 'America/Chicago')), at).toEqual(['scheduledAt']);
  });

  it('refuses a zone that is not an IANA name, naming scheduledTimezone', () => {
    for (const zone of ['Mars/Olympus', '+03:00', '', 'local']) expect(Object.keys(refused('2027-01-15T09:00', zone)), zone).toEqual(['scheduledTimezone']);
    expect(isIanaTimeZone('Etc/GMT+5')).toBe(true);
    expect(isIanaTimeZone('UTC')).toBe(true);
  });

  it('takes a time from one minute to 365 days ahead', () => {
    const now = new Date('2027-01-15T14:59:00Z');
    expect(scheduleTime('2027-01-15T09:00', 'America/Chicago', now).sendAt).toBe('2027-01-15T15:00:00.000Z');
    expect(refused('2027-01-15T09:00', 'America/Chicago', new Date('2027-01-15T14:59:01Z')).scheduledAt).toMatch(/at least one minute/);
    expect(refused('2028-01-15T09:00', 'America/Chicago', now).scheduledAt).toMatch(/within 365 days/);
    expect(scheduleTime('2028-01-15T08:59', 'America/Chicago', now).sendAt).toBe('2028-01-15T14:59:00.000Z');
  });
});
