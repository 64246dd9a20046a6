/**
 * Edge validation building blocks: `issuesToFields` naming of zod issues, the int32 helper (numbers or
 * digit strings, spec "Conventions") and `calendarDate` (date part kept, impossible dates refused).
 */
import { describe, expect, it } from 'vitest';
import * as z from '#api/zod';
import { issuesToFields, rawBody } from '#http/middleware/validate-input';
import { calendarDate, int32 } from '#api/params';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

describe('issuesToFields', () => {
  const schema = z.object({
    keyDates: z.array(z.object({ keyDateType: z.string(), dateValue: calendarDate() })),
    meta: z.object({ note: z.string() }),
  });

  it('names nested fields with dots and array indexes in brackets, first message per field', () => {
    const r = schema.safeParse({ keyDates: [{ keyDateType: 'ClosingDate', dateValue: '2026-02-30' }], meta: { note: 5 } });

    expect(r.success).toBe(false);
    const fields = issuesToFields(r.error!.issues, 'body');
    expect(Object.keys(fields).sort()).toEqual(['keyDates[0].dateValue', 'meta.note']);
    expect(fields['keyDates[0].dateValue']).toBe('is not a real calendar date');
  });

  it('uses the prefix for an issue on the value itself, and `body` without one', () => {
    const r = z.object({ a: z.string() }).safeParse('not an object');

    expect(Object.keys(issuesToFields(r.error!.issues, 'query'))).toEqual(['query']);
    expect(Object.keys(issuesToFields(r.error!.issues))).toEqual(['body']);
  });
});

describe('int32', () => {
  it('accepts a number or a string of digits, giving a number', () => {
    expect(int32().parse('25')).toBe(25);
    expect(int32().parse(25)).toBe(25);
    expect(int32({ min: -5 }).parse('-5')).toBe(-5);
  });

  it.each([
    ['2.5', {}, 'must be an integer'],
    [2.5, {}, 'must be an integer'],
    ['-1', { min: 1 }, 'must be at least 1'],
    ['101', { max: 100 }, 'must be at most 100'],
    ['99999999999', {}, 'must be at most 2147483647'],
    ['', {}, 'must be an integer'],
  ])('rejects %j with %j', (value, opts, message) => {
    const r = int32(opts).safeParse(value);

    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.message)).toContain(message);
  });
});

describe('calendarDate', () => {
  it('keeps the calendar-date part of a date-time as written, with no time-zone shift', () => {
    expect(calendarDate().parse('2026-03-14')).toBe('2026-03-14');
    expect(calendarDate().parse('2026-03-14T23:30:00-05:00')).toBe('2026-03-14');
    expect(calendarDate().parse('2026-03-14T00:15:00Z')).toBe('2026-03-14');
  });

  it('accepts 29 February only in a leap year', () => {
    expect(calendarDate().safeParse('2028-02-29').success).toBe(true);
    expect(calendarDate().safeParse('2027-02-29').success).toBe(false);
  });

  it.each(['2026-02-30', '2026-13-01', '2026-04-31', '14/03/2026', '2026-3-14'])('rejects %s', (value) => {
    expect(calendarDate().safeParse(value).success).toBe(false);
  });
});

describe('rawBody', () => {
  const ev = (body: string | undefined, isBase64Encoded: boolean) => ({ body, isBase64Encoded }) as APIGatewayProxyEventV2;

  it('decodes a base64 body and treats an empty one as absent', () => {
    expect(rawBody(ev(Buffer.from('{"a":1}').toString('base64'), true))).toBe('{"a":1}');
    expect(rawBody(ev('{"a":1}', false))).toBe('{"a":1}');
    expect(rawBody(ev('', false))).toBeUndefined();
  });
});
