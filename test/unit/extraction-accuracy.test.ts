/** The measuring stick of the extraction tests and `npm run bench:extraction`: exact match, precision, recall, table. */
import { describe, expect, it } from 'vitest';
import { compareFields, formatAccuracyTable, scoreComparisons, type ExpectedValues } from '#domain/extraction/accuracy';
import { FIELD_NAMES } from '#domain/extraction/fields';
import type { ContractFields } from '#domain/extraction/types';

const expected = Object.fromEntries(FIELD_NAMES.map((f) => [f, null])) as unknown as ExpectedValues;
Object.assign(expected, { buyers: ['Ann Lee', 'David Lee'], salesPriceTotal: 425000, county: 'Collin', optionFee: 500 });

/** Fields reading `values` (every other field null). */
function fields(values: Partial<Record<string, unknown>>): ContractFields {
  return Object.fromEntries(
    FIELD_NAMES.map((f) => [f, { value: values[f] ?? null, confidence: values[f] === undefined ? 0 : 0.9, citations: [], warnings: [] }]),
  ) as unknown as ContractFields;
}

describe('compareFields / scoreComparisons', () => {
  // buyers exact; salesPriceTotal wrong; county missing; optionFee exact; hoa reported where none was expected.
  const rows = compareFields(expected, fields({ buyers: ['Ann Lee', 'David Lee'], salesPriceTotal: 42500, optionFee: 500, hoa: true }));

  it('compares every field, deep and exact (arrays in order), null = null counting as exact', () => {
    expect(rows.map((r) => r.field)).toEqual(FIELD_NAMES);
    const byField = Object.fromEntries(rows.map((r) => [r.field, r.exact]));
    expect(byField).toMatchObject({ buyers: true, salesPriceTotal: false, county: false, optionFee: true, hoa: false, closingDate: true });
    expect(compareFields(expected, fields({ buyers: ['David Lee', 'Ann Lee'] })).find((r) => r.field === 'buyers')!.exact).toBe(false);
  });

  it('precision is over values reported, recall over values expected', () => {
    const s = scoreComparisons(rows);
    const total = FIELD_NAMES.length;
    expect(s).toEqual({
      exact: total - 3,
      total,
      accuracy: (total - 3) / total,
      precision: 2 / 4, // reported: buyers ✓, salesPriceTotal ✗, optionFee ✓, hoa ✗
      recall: 2 / 4, // expected: buyers ✓, salesPriceTotal ✗, county ✗, optionFee ✓
    });
  });

  it('counts an empty denominator as 1', () => {
    const none = compareFields(Object.fromEntries(FIELD_NAMES.map((f) => [f, null])) as unknown as ExpectedValues, fields({}));
    expect(scoreComparisons(none)).toMatchObject({ accuracy: 1, precision: 1, recall: 1 });
  });
});

describe('formatAccuracyTable', () => {
  it('prints one aligned row per field with misses cut to the column, and the total', () => {
    const good = compareFields(expected, fields({ buyers: ['Ann Lee', 'David Lee'], salesPriceTotal: 425000, county: 'Collin', optionFee: 500 }));
    const bad = compareFields(expected, fields({ buyers: ['Ann Lee', 'David Lee', 'A Very Long Third Buyer Name'], salesPriceTotal: 425000, county: 'Collin', optionFee: 500 }));
    const lines = formatAccuracyTable({ textLayer: good, imageOnlyScan: bad }).split('\n');
    const buyers = lines.find((l) => l.startsWith('buyers'))!;
    expect(buyers).toBe(`${'buyers'.padEnd(22)} ${'✓'.padEnd(20)} ${'✗ ["Ann Lee","David…'} 50%`);
    expect(buyers.lastIndexOf(' ')).toBe(lines.find((l) => l.startsWith('county'))!.lastIndexOf(' '));
    expect(lines.at(-1)).toBe(`${'TOTAL'.padEnd(22)} ${''.padEnd(20)} ${''.padEnd(20)} ${2 * FIELD_NAMES.length - 1}/${2 * FIELD_NAMES.length} = ${((100 * (2 * FIELD_NAMES.length - 1)) / (2 * FIELD_NAMES.length)).toFixed(1)}%`);
  });
});
