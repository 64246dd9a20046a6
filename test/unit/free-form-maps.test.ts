/**
 * Maps keyed by caller-chosen names are read without prototype lookups (issue 8): apply `overrides`, webhook
 * `headers` and `events`, address tokens, key-date types in a status cascade, validation `fields`. Names such
 * as `constructor`, `toString` or `__proto__` are ordinary names here, never a crash or an inherited member
 * (as request keys they are refused before, by shared/http/input-guard.ts).
 */
import { describe, expect, it } from 'vitest';
import * as z from '#api/zod';
import { dict, dictOf, own } from '#domain/dict';
import { parseOverrides } from '#domain/apply-extraction';
import { addressScore, addressTokens } from '#domain/address-match';
import { planCascade, type StatusDefinition } from '#domain/statuses';
import { assertValidSubscription } from '#events/subscription-rules';
import { InvalidInput } from '#domain/errors';
import { issuesToFields } from '#http/middleware/validate-input';
import { overrides } from '#api/schemas/apply-extraction';
import { headers, MAX_CUSTOM_HEADERS } from '#api/schemas/webhooks';

const PROTO_NAMES = ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__', '__defineGetter__'];

describe('dict helpers', () => {
  it('own() never finds an inherited member', () => {
    const map: Record<string, number> = { a: 1 };
    for (const name of PROTO_NAMES) expect(own(map, name)).toBeUndefined();
    expect(own(map, 'a')).toBe(1);
  });

  it('dict() and dictOf() keep every name, __proto__ included, as an own key', () => {
    const d = dictOf(PROTO_NAMES.map((n) => [n, n.length] as const));
    expect(Object.keys(d).sort()).toEqual([...PROTO_NAMES].sort());
    expect(own(d, '__proto__')).toBe(9);
    expect(Object.getPrototypeOf(dict())).toBeNull();
    expect(JSON.parse(JSON.stringify(d)).constructor).toBe(11);
  });
});

describe('parseOverrides', () => {
  it.each(PROTO_NAMES)('refuses %s as "not a contract field" (no crash, nothing kept)', (name) => {
    const raw = JSON.parse(`{${JSON.stringify(name)}: "x", "propertyCity": "Austin"}`);
    const { values, errors } = parseOverrides(raw);
    expect(Object.entries(errors)).toEqual([[`overrides.${name}`, 'is not a contract field']]);
    expect(Object.keys(values)).toEqual(['propertyCity']);
  });

  it('validates dates strictly (real days, years 1900-2199) and keeps the date part', () => {
    expect(parseOverrides({ closingDate: '2030-04-15T10:00:00Z' }).values).toEqual({ closingDate: '2030-04-15' });
    for (const bad of ['2030-02-30', '2030-04-15Tgarbage', '2030-04-15T25:00:00Z', '9999-12-31']) {
      expect(parseOverrides({ closingDate: bad }).errors, bad).toHaveProperty(['overrides.closingDate']);
    }
  });

  it('the schema bounds the map: at most one entry per contract field, scalars or short name lists', () => {
    expect(overrides().safeParse({ buyers: ['A', 'B'], hoa: true, earnestMoney: 5000, closingDate: null }).success).toBe(true);
    expect(overrides().safeParse({ buyers: Array(11).fill('A') }).success).toBe(false);
    expect(overrides().safeParse({ propertyStreet: 'x'.repeat(501) }).success).toBe(false);
    expect(overrides().safeParse({ propertyStreet: { nested: true } }).success).toBe(false);
    expect(overrides().safeParse(Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`f${i}`, 1]))).success).toBe(false);
  });
});

describe('webhook headers and events', () => {
  const sub = (h: Record<string, string>, events = ['*']) => ({ url: 'http://127.0.0.1:9/hook', events, headers: h });
  const fieldsOf = async (body: ReturnType<typeof sub>) => {
    try {
      await assertValidSubscription(body);
      return {};
    } catch (err) {
      if (err instanceof InvalidInput) return err.fields;
      throw err;
    }
  };
  const saved = process.env.LOCAL_MODE;
  process.env.LOCAL_MODE = 'true';

  it('reads header names as own keys (constructor or toString are refused earlier, by the request check)', async () => {
    expect(await fieldsOf(sub(JSON.parse('{"constructor":"a","toString":"b","X-Tenant":"c"}')))).toEqual({});
  });

  it('refuses two header names that differ only in case (RFC 9110 §5.1: case-insensitive)', async () => {
    expect(Object.keys(await fieldsOf(sub({ 'X-Tenant': 'a', 'x-tenant': 'b' })))).toEqual(['headers.x-tenant']);
  });

  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])('refuses the event type %s (only catalog types or *)', async (e) => {
    expect(await fieldsOf(sub({}, [e]))).toEqual({ 'events[0]': expect.stringMatching(/not an event type/) });
  });

  it(`the schema allows at most ${MAX_CUSTOM_HEADERS} headers`, () => {
    const many = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`X-H${i}`, 'v']));
    expect(headers().safeParse(many(MAX_CUSTOM_HEADERS)).success).toBe(true);
    expect(headers().safeParse(many(MAX_CUSTOM_HEADERS + 1)).success).toBe(false);
  });

  it('restores LOCAL_MODE', () => {
    if (saved === undefined) delete process.env.LOCAL_MODE;
    else process.env.LOCAL_MODE = saved;
  });
});

describe('other name-keyed lookups', () => {
  it('address tokens named like Object members stay themselves', () => {
    expect(addressTokens('12 constructor toString St')).toEqual(['12', 'constructor', 'tostring', 'street']);
    expect(addressScore('12 constructor', '12 Constructor St')).toBeGreaterThan(0.9);
  });

  it('a status cascade naming a key-date type like toString finds nothing to shift when the deal lacks it', () => {
    const status: StatusDefinition = {
      name: 'Closing Extended',
      category: 'pending',
      description: '',
      cascade: [{ type: 'shiftKeyDates', keyDateTypes: ['toString', 'constructor', 'ClosingDate'], days: 7, note: 'extension' }],
    };
    const plan = planCascade(status, { ClosingDate: '2030-06-01' }, '2030-05-01');
    expect(plan.shifts).toEqual([{ keyDateType: 'ClosingDate', from: '2030-06-01', to: '2030-06-08', note: 'extension' }]);
  });

  it('validation fields keep the first message per name, for any name', () => {
    const r = z.object({ constructor: z.string(), toString: z.number() }).safeParse({ constructor: 1, toString: 'x' });
    expect(issuesToFields(r.error!.issues, 'body')).toEqual({ constructor: expect.any(String), toString: expect.any(String) });
  });
});
