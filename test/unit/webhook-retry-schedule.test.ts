/** Webhook retry schedule: default delays, attempt count, ±20 % jitter, SQS cap, WEBHOOK_RETRY_SCHEDULE parsing. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_SCHEDULE_SECONDS, maxAttempts, retryDelaySeconds, retryScheduleSeconds } from '#events/retry-schedule';

let saved: string | undefined;
beforeEach(() => {
  saved = process.env.WEBHOOK_RETRY_SCHEDULE;
  delete process.env.WEBHOOK_RETRY_SCHEDULE;
});
afterEach(() => {
  if (saved === undefined) delete process.env.WEBHOOK_RETRY_SCHEDULE;
  else process.env.WEBHOOK_RETRY_SCHEDULE = saved;
});

describe('default schedule', () => {
  it('is 1 min, 5 min, 30 min, 2 h, 6 h, 12 h', () => {
    expect(retryScheduleSeconds()).toEqual([60, 300, 1800, 7200, 21_600, 43_200]);
    expect(retryScheduleSeconds()).toEqual([...DEFAULT_RETRY_SCHEDULE_SECONDS]);
  });

  it('gives 7 attempts in all', () => {
    expect(maxAttempts()).toBe(7);
  });

  it('returns a copy, so callers cannot change the default', () => {
    retryScheduleSeconds().push(1);
    expect(retryScheduleSeconds()).toHaveLength(6);
  });
});

describe('retryDelaySeconds', () => {
  it('jitters each delay within ±20 %', () => {
    expect(retryDelaySeconds(1, undefined, 0)).toBe(48);
    expect(retryDelaySeconds(1, undefined, 0.5)).toBe(60);
    expect(retryDelaySeconds(1, undefined, 0.999)).toBe(72);
    expect(retryDelaySeconds(2, undefined, 0)).toBe(240);
    expect(retryDelaySeconds(2, undefined, 0.999)).toBe(360);
    expect(retryDelaySeconds(3, undefined, 0.5)).toBe(1800);
  });

  it('stays inside the bounds for random jitter', () => {
    for (let i = 0; i < 200; i++) {
      const d = retryDelaySeconds(4)!;
      expect(d).toBeGreaterThanOrEqual(0.8 * 7200);
      expect(d).toBeLessThanOrEqual(1.2 * 7200);
      expect(Number.isInteger(d)).toBe(true);
    }
  });

  it('caps at the SQS maximum visibility timeout of 12 h', () => {
    expect(retryDelaySeconds(6, undefined, 0.999)).toBe(43_200);
    expect(retryDelaySeconds(6, undefined, 0)).toBe(34_560);
    expect(retryDelaySeconds(1, [100_000], 0.5)).toBe(43_200);
  });

  it('is null past the last scheduled delay', () => {
    expect(retryDelaySeconds(6, undefined, 0.5)).not.toBeNull();
    expect(retryDelaySeconds(7, undefined, 0.5)).toBeNull();
    expect(retryDelaySeconds(8, undefined, 0.5)).toBeNull();
  });

  it('uses the schedule it is given', () => {
    expect(retryDelaySeconds(2, [1, 10, 100], 0.5)).toBe(10);
    expect(retryDelaySeconds(4, [1, 10, 100], 0.5)).toBeNull();
  });
});

describe('WEBHOOK_RETRY_SCHEDULE', () => {
  it('replaces the delays (comma-separated seconds, spaces allowed)', () => {
    process.env.WEBHOOK_RETRY_SCHEDULE = '1, 1 ,2';
    expect(retryScheduleSeconds()).toEqual([1, 1, 2]);
    expect(maxAttempts()).toBe(4);
    expect(retryDelaySeconds(3, undefined, 0.5)).toBe(2);
    expect(retryDelaySeconds(4, undefined, 0.5)).toBeNull();
  });

  it('accepts zero delays', () => {
    expect(retryScheduleSeconds('0,0')).toEqual([0, 0]);
    expect(retryDelaySeconds(1, [0], 0.999)).toBe(0);
  });

  it('falls back to the default when empty', () => {
    process.env.WEBHOOK_RETRY_SCHEDULE = '';
    expect(retryScheduleSeconds()).toHaveLength(6);
  });

  it.each(['a,1', '1,-5', 'NaN', '1,Infinity', '60s'])('throws for %j', (value) => {
    expect(() => retryScheduleSeconds(value)).toThrow(/WEBHOOK_RETRY_SCHEDULE is invalid/);
    process.env.WEBHOOK_RETRY_SCHEDULE = value;
    expect(() => maxAttempts()).toThrow(/WEBHOOK_RETRY_SCHEDULE is invalid/);
  });
});
