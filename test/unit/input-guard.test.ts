/**
 * The generic check of every request value (shared/http/input-guard.ts): lone surrogates, NUL, keys naming
 * Object.prototype members, non-finite numbers and deep nesting are refused wherever they are, named like zod issues.
 */
import { describe, expect, it } from 'vitest';
import { inputProblems, MAX_DEPTH, RESERVED_KEYS, stringProblem } from '#http/input-guard';

describe('stringProblem', () => {
  it.each(['', 'plain', 'é', '😀', 'e\u0301', '\u202e', '\u200f', '\ufeff', 'tab\tnew\nline'])('accepts %j', (s) => {
    expect(stringProblem(s)).toBeUndefined();
  });

  it.each([
    ['\ud800', /lone UTF-16 surrogate/],
    ['a\udfffb', /lone UTF-16 surrogate/],
    ['\ude00\ud83d', /lone UTF-16 surrogate/],
    ['a\u0000b', /NUL/],
  ])('refuses %j', (s, message) => {
    expect(stringProblem(s)).toMatch(message);
  });
});

describe('inputProblems', () => {
  it('passes a clean body', () => {
    expect(inputProblems({ a: 'x', b: [1, { c: null, d: true }], e: -0 }, 'body')).toEqual({});
  });

  it('names bad values by dotted path with array indexes in brackets, and the root by its name', () => {
    const fields = inputProblems({ keyDates: [{ label: 'ok' }, { label: '\ud800' }], meta: { note: 'a\u0000' } }, 'body');
    expect(Object.keys(fields).sort()).toEqual(['keyDates[1].label', 'meta.note']);
    expect(inputProblems('\ud800', 'body')).toEqual({ body: expect.stringMatching(/surrogate/) });
    expect(inputProblems({ transactionId: '\udc00' }, 'path')).toEqual({ transactionId: expect.any(String) });
  });

  it('refuses keys that name Object.prototype members at any depth (__proto__ as JSON.parse makes it: an own key)', () => {
    const body = JSON.parse('{"overrides":{"__proto__":{"polluted":true},"constructor":1,"toString":"x","propertyCity":"Austin"}}');
    expect(Object.keys(inputProblems(body, 'body')).sort()).toEqual(['overrides.__proto__', 'overrides.constructor', 'overrides.toString']);
    // (an object literal `{ __proto__: … }` would set a prototype, so the own entries are compared)
    expect(Object.entries(inputProblems(JSON.parse('{"__proto__":1}'), 'body'))).toEqual([['__proto__', expect.stringMatching(/reserved name/)]]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(RESERVED_KEYS).toEqual(new Set(Object.getOwnPropertyNames(Object.prototype)));
  });

  it('keeps names that only resemble them', () => {
    expect(inputProblems({ Constructor: 1, 'X-toString': 2, proto: 3, __proto: 4 }, 'body')).toEqual({});
  });

  it('refuses keys that are not well-formed Unicode', () => {
    expect(Object.values(inputProblems(JSON.parse('{"headers":{"\\ud800":"x"}}'), 'body'))).toEqual([expect.stringMatching(/surrogate/)]);
  });

  it('refuses non-finite numbers (JSON 1e400 parses as Infinity)', () => {
    expect(inputProblems(JSON.parse('{"sizeBytes":1e400,"n":[-1e400]}'), 'body')).toEqual({ sizeBytes: 'must be a finite number', 'n[0]': 'must be a finite number' });
  });

  it(`accepts ${MAX_DEPTH} levels of nesting and refuses more, without recursion`, () => {
    const nest = (n: number) => JSON.parse('['.repeat(n) + ']'.repeat(n));
    expect(inputProblems(nest(MAX_DEPTH), 'body')).toEqual({});
    expect(Object.values(inputProblems(nest(MAX_DEPTH + 1), 'body'))).toEqual([expect.stringMatching(/nested too deeply/)]);
    expect(Object.keys(inputProblems(nest(200_000), 'body'))).toHaveLength(1);
  });

  it('reports at most 20 problems whatever the input', () => {
    expect(Object.keys(inputProblems(Array.from({ length: 1000 }, () => '\ud800'), 'body')).length).toBe(20);
  });
});
