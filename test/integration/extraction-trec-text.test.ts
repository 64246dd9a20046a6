/**
 * TREC 20-18 end to end on the text layer: every labelled fixture (test/fixtures/trec) — the official form
 * filled and flattened — read by the local OCR adapter (pdf.js text layer) and extracted; every field must equal
 * `expectedFields(values)` exactly (precision and recall 100%). Also the key dates the fixtures were designed
 * for (weekend and holiday option ends).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { localOcr, terminateLocalOcr } from '#ports/ocr-local';
import { extractContract } from '#domain/extraction/extract';
import type { ExtractionResult } from '#domain/extraction/types';
import { FIELD_NAMES } from '#domain/extraction/fields';
import { compareFields, formatAccuracyTable } from '#domain/extraction/accuracy';
import { buildFixture } from '../fixtures/trec/build-fixtures.ts';
import { expectedFields, VALUE_SET_NAMES, type ValueSetName } from '../fixtures/trec/value-sets.ts';

const results = new Map<ValueSetName, ExtractionResult>();

afterAll(async () => {
  await terminateLocalOcr();
  const table: Record<string, ReturnType<typeof compareFields>> = {};
  for (const [name, r] of results) table[name] = compareFields(expectedFields((await buildFixture(name)).values), r.fields);
  if (results.size) console.log(`\nText-layer per-field accuracy:\n${formatAccuracyTable(table)}\n`);
});

async function extracted(name: ValueSetName): Promise<ExtractionResult> {
  if (!results.has(name)) {
    const fx = await buildFixture(name);
    const ocr = await localOcr.analyze(fx.textPdf);
    expect(Object.values(ocr.methods).every((m) => m === 'pdf-text')).toBe(true);
    results.set(name, extractContract(ocr));
  }
  return results.get(name)!;
}

describe('TREC 20-18 text-layer fixtures → exact fields', () => {
  it.each(VALUE_SET_NAMES)('%s: every field exact, high confidence', async (name) => {
    const fx = await buildFixture(name);
    const r = await extracted(name);
    expect(r.formType).toBe('TREC 20-18');
    expect(r.pageCount).toBe(11);
    const actual = Object.fromEntries(FIELD_NAMES.map((k) => [k, r.fields[k].value]));
    expect(actual).toEqual(expectedFields(fx.values));
    for (const k of FIELD_NAMES) {
      const f = r.fields[k];
      if (f.value === null) continue;
      expect(f.confidence, k).toBeGreaterThanOrEqual(0.9);
      expect(f.citations.length, k).toBeGreaterThan(0);
      expect(f.warnings, k).toEqual([]);
    }
    expect(r.requiresReview).toBe(false);
  }, 60_000);

  it('cites where each value was read (page and box of the filled text)', async () => {
    const r = await extracted('financedPurchase');
    expect(r.fields.salesPriceTotal.citations[0]).toMatchObject({ page: 1, text: '425,000.00' });
    expect(r.fields.closingDate.citations[0].page).toBe(5);
    expect(r.fields.effectiveDate.citations[0].page).toBe(9);
    expect(r.fields.listingBrokerage.citations[0]).toMatchObject({ page: 10, text: 'Cotton Gin Realty Partners' });
    const box = r.fields.buyers.citations[0].boundingBox;
    expect(box.left).toBeGreaterThan(0.1);
    expect(box.top).toBeGreaterThan(0.1);
    expect(box.top).toBeLessThan(0.2);
  });

  it('weekendOptionEnd: the option period ends Saturday 2025-07-19 and is not extended (¶5B); the Option Fee is due Thursday', async () => {
    const r = await extracted('weekendOptionEnd');
    const kd = Object.fromEntries(r.keyDates.map((k) => [k.keyDateType, k]));
    expect(kd.InspectionDeadline.dateValue).toBe('2025-07-19');
    expect(kd.InspectionDeadline.calculationNotes).toBe(
      'Effective Date 2025-07-14 + 5 days (TREC 20-18 ¶5B); falls on Saturday 2025-07-19 — not extended: the form extends ' +
        'only the earnest money, Option Fee and additional earnest money deadlines (TREC 20-18 ¶5A(2))',
    );
    expect(kd.OptionFeeDue.dateValue).toBe('2025-07-17');
    expect(kd.ClosingDate.dateValue).toBe('2025-08-22');
    expect(r.warnings).toContain(
      'FinancingDeadline not set: the Seller Financing Addendum is a separate form; enter its financing approval deadline',
    );
  });

  it('holidayOptionEnd: Christmas is a legal holiday for the earnest money (¶5A(2)) but the option period still ends on it', async () => {
    const r = await extracted('holidayOptionEnd');
    const kd = Object.fromEntries(r.keyDates.map((k) => [k.keyDateType, k]));
    expect(kd.InspectionDeadline.dateValue).toBe('2025-12-25');
    expect(kd.InspectionDeadline.calculationNotes).toContain('falls on legal holiday (Christmas Day) 2025-12-25 — not extended');
    // 2025-12-18 + 3 = Sunday 2025-12-21 → Monday 2025-12-22.
    expect(kd.EarnestMoneyDue.dateValue).toBe('2025-12-22');
    expect(kd.EarnestMoneyDue.calculationNotes).toBe(
      'Effective Date 2025-12-18 + 3 days (TREC 20-18 ¶5A); falls on Sunday 2025-12-21 → extended to Monday 2025-12-22 (TREC 20-18 ¶5A(2))',
    );
  });

  it('missingOptional: no option, survey or objection days → those dates are not computed', async () => {
    const r = await extracted('missingOptional');
    const types = r.keyDates.map((k) => k.keyDateType);
    expect(types).toEqual(['ClosingDate', 'EarnestMoneyDue']);
    expect(r.warnings).toContain('InspectionDeadline not set: option period days missing');
  });
});
