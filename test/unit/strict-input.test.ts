/**
 * Strict request bodies (issue 25, shared/api/strict.ts): every object of every operation's body refuses a key it
 * does not define, at any depth, and the validation `fields` name that key; the spec's free-form maps (records,
 * JSON values) still take any key; the OpenAPI document says `additionalProperties: false` for the strict ones.
 */
import { describe, expect, it } from 'vitest';
import * as z from '#api/zod';
import { schemasOf } from '#api/operation';
import { strictDeep, UNKNOWN_FIELD_MESSAGE } from '#api/strict';
import { boundedRecord } from '#api/schemas/free-form';
import { issuesToFields } from '#http/middleware/validate-input';
import { loadOperations } from '#lib/registry';
import { buildOpenApi } from '#lib/openapi/document';
import { keyDateTypeProblem, KEY_DATE_TYPES } from '#domain/key-date-types';

const ops = await loadOperations();
const opById = (id: string) => ops.find((o) => o.operationId === id)!;
const fieldsOf = (schema: z.ZodMiniType, value: unknown) => {
  const r = schema.safeParse(value);
  return r.success ? {} : issuesToFields(r.error.issues, 'body');
};

describe('strictDeep', () => {
  const address = z.object({ street: z.string(), zip: z.string() });
  const body = z.object({
    name: z.string(),
    owner: z.nullish(address),
    items: z.array(z.object({ id: z.string() })),
    either: z.optional(z.union([z.object({ a: z.string() }), z.string()])),
    headers: z.optional(boundedRecord(z.string(), z.string(), 5)),
    parameters: z.optional(z.json()),
    loose: z.optional(z.looseObject({ x: z.string() })),
  });
  const strict = strictDeep(body);
  const valid = { name: 'n', owner: { street: 's', zip: '78704' }, items: [{ id: '1' }] };

  it('refuses an unknown key at the top, in a nested object, in an array item and in a union branch, naming each', () => {
    expect(fieldsOf(strict, { ...valid, due: '2026-12-01' })).toEqual({ due: UNKNOWN_FIELD_MESSAGE });
    expect(fieldsOf(strict, { ...valid, owner: { street: 's', zip: '1', city: 'Austin' } })).toEqual({ 'owner.city': UNKNOWN_FIELD_MESSAGE });
    expect(fieldsOf(strict, { ...valid, items: [{ id: '1' }, { id: '2', extra: 1 }] })).toEqual({ 'items[1].extra': UNKNOWN_FIELD_MESSAGE });
    expect(fieldsOf(strict, { ...valid, either: { a: 'x', b: 'y' } })).not.toEqual({});
  });

  it('accepts what the schema defines, and any key inside records, JSON values and loose objects', () => {
    expect(strict.safeParse(valid).success).toBe(true);
    expect(strict.safeParse({ ...valid, headers: { 'X-Any': 'v' }, parameters: { any: { deep: [1] } }, loose: { x: 'a', y: 'b' } }).success).toBe(true);
  });

  it('leaves the original schema lenient and returns a schema without objects as the same instance', () => {
    expect(body.safeParse({ ...valid, due: 'x' }).success).toBe(true);
    const scalar = z.string();
    expect(strictDeep(scalar)).toBe(scalar);
    const record = boundedRecord(z.string(), z.string(), 5);
    expect(strictDeep(record)).toBe(record);
  });
});

describe('every operation body is strict (schemasOf)', () => {
  it('the task typo of issue 25 is a 422 naming `due`', () => {
    const schema = schemasOf(opById('createTask')).body!;
    expect(fieldsOf(schema, { title: 'x', due: '2026-12-01' })).toEqual({ due: UNKNOWN_FIELD_MESSAGE });
  });

  it('a nested object of a body is strict too (partner org owner)', () => {
    const schema = schemasOf(opById('createPartnerOrg')).body!;
    const owner = { email: 'o@example.com', firstName: 'O', lastName: 'W' };
    expect(schema.safeParse({ name: 'Acme', owner }).success).toBe(true);
    expect(fieldsOf(schema, { name: 'Acme', owner: { ...owner, phone: '1' } })).toEqual({ 'owner.phone': UNKNOWN_FIELD_MESSAGE });
  });

  it('the free-form maps of the spec take any key: webhook headers, apply overrides (checked later), device permissions, proposal parameters', () => {
    expect(schemasOf(opById('createWebhook')).body!.safeParse({ name: 'n', url: 'https://example.com/h', events: ['*'], headers: { 'X-Anything': 'v' } }).success).toBe(true);
    expect(schemasOf(opById('registerDevice')).body!.safeParse({ permissions: { anyName: true } }).success).toBe(true);
    expect(schemasOf(opById('updateProposalPayload')).body!.safeParse({ parameters: { anything: 1 } }).success).toBe(true);
  });

  it('the OpenAPI document gives every request-body object `additionalProperties: false`', () => {
    const doc = buildOpenApi(ops);
    const open: string[] = [];
    let objects = 0;
    const walk = (s: any, at: string): void => {
      if (!s || typeof s !== 'object') return;
      if (Array.isArray(s)) return s.forEach((x, i) => walk(x, `${at}[${i}]`));
      if (s.type === 'object' && s.properties) {
        objects++;
        if (s.additionalProperties !== false) open.push(at);
      }
      for (const [k, v] of Object.entries(s)) walk(v, `${at}.${k}`);
    };
    for (const item of Object.values<any>(doc.paths)) {
      for (const o of Object.values<any>(item)) if (o.requestBody) walk(o.requestBody.content['application/json'].schema, o.operationId);
    }
    expect(objects).toBeGreaterThan(40);
    expect(open).toEqual([]);
  });
});

describe('key-date vocabulary', () => {
  it('a type outside it needs isCustom: true; the named ones pass either way', () => {
    expect(keyDateTypeProblem('Closing', false)).toMatch(/not a key-date type/);
    expect(keyDateTypeProblem('Closing', undefined)).toMatch(/isCustom: true/);
    expect(keyDateTypeProblem('closingdate', null)).toBeDefined();
    expect(keyDateTypeProblem('Closing', true)).toBeUndefined();
    for (const type of KEY_DATE_TYPES) expect(keyDateTypeProblem(type, undefined)).toBeUndefined();
  });

  it('the bulk upsert refuses `Closing` without isCustom and names the item', () => {
    const schema = schemasOf(opById('upsertKeyDates')).body!;
    expect(Object.keys(fieldsOf(schema, { keyDates: [{ keyDateType: 'ClosingDate', dateValue: '2027-01-08' }, { keyDateType: 'Closing', dateValue: '2027-01-08' }] }))).toEqual(['keyDates[1].keyDateType']);
    expect(schema.safeParse({ keyDates: [{ keyDateType: 'Closing', dateValue: '2027-01-08', isCustom: true }] }).success).toBe(true);
  });
});
