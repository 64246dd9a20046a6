/**
 * Values inside numbered paragraphs (shared/domain/extraction/paragraphs.ts), from OCR-shaped blocks of an
 * invented association form: names typed above blanks before their ("Buyer") / ("Seller") captions, the price
 * at the right margin above a "$" blank two rows below "3. PURCHASE PRICE:", a "✖"-marked option, the earnest
 * money at the end of its sentence, and the closing date split over (month) (day) (year) blanks.
 */
import { describe, expect, it } from 'vitest';
import { buildBlocks, row, type RowSpec } from '#domain/extraction/block-builder';
import { buildDocText } from '#domain/extraction/lines';
import { extractContract } from '#domain/extraction/extract';
import { findParagraphs } from '#domain/extraction/paragraphs';

/** A row with values typed a little above it (dy < 0). */
const withTyped = (top: number, printed: [number, string][], typed: [number, string][]): RowSpec => ({
  top,
  items: [...printed.map(([left, text]) => ({ left, text })), ...typed.map(([left, text]) => ({ left, text, dy: -0.009 }))],
});

const page = (extra: RowSpec[] = []): RowSpec[] => [
  row(0.03, [0.3, 'RESIDENTIAL REAL ESTATE SALE CONTRACT']),
  withTyped(0.06, [[0.08, '1. PARTIES: The persons signing below as purchaser, namely']], [[0.55, 'Linnea Marsh and Corwin Marsh']]),
  withTyped(0.075, [[0.08, '("Buyer"), offer to buy from the owner of record, namely']], [[0.55, 'Halvard Greenleaf']]),
  row(0.09, [0.08, '("Seller"), the property described below.']),
  row(0.12, [0.08, '3. PURCHASE PRICE: Buyer will pay for the Property a price which is the']),
  row(0.135, [0.08, 'exact sum of, subject to the adjustments in this contract,']),
  withTyped(0.15, [[0.7, '$']], [[0.72, '$286,500.00']]),
  row(0.17, [0.09, '✖ A. NEW FINANCING: Buyer will obtain a new loan for part of the price.']),
  row(0.185, [0.09, '☐ B. CASH: Buyer will pay the whole price in cash.']),
  withTyped(0.21, [[0.08, '4. EARNEST MONEY: Buyer will deposit earnest money in the sum of']], [[0.6, '$3,000.00']]),
  row(0.24, [0.08, '22. CLOSING: The parties will close through the closing agent. Unless they agree']),
  withTyped(0.255, [[0.08, 'otherwise, closing will be on or before (month)'], [0.5, '(day)'], [0.6, '(year)'], [0.7, 'or within seven days.']], [[0.44, 'August'], [0.55, '22'], [0.65, '2025']]),
  row(0.28, [0.08, '23. POSSESSION: Seller will give possession at closing.']),
  ...extra,
  row(0.4, [0.08, 'Effective Date: 07/14/2025']),
];

describe('numbered paragraphs', () => {
  it('finds each paragraph by its heading, OCR glue included ("PURCHASE PRICBuyer")', () => {
    const doc = buildDocText(buildBlocks({ 1: [row(0.1, [0.08, '3. PURCHASE PRICBuyer will pay']), row(0.2, [0.08, '4. EARNEST MONEWWithin three days']), row(0.3, [0.08, '1. The Purchase Price shall be paid'])] }));
    expect(findParagraphs(doc).map((p) => [p.number, p.kind])).toEqual([
      [3, 'price'],
      [4, 'earnest'],
    ]);
  });

  it('reads price, financing, earnest money, parties and the split closing date inside their paragraphs', () => {
    const r = extractContract({ pageCount: 1, methods: {}, blocks: buildBlocks({ 1: page() }) });
    expect(r.formType).toBe('generic');
    const v = (n: keyof typeof r.fields) => r.fields[n].value;
    expect({
      buyers: v('buyers'),
      sellers: v('sellers'),
      price: v('salesPriceTotal'),
      financing: v('financingType'),
      earnest: v('earnestMoney'),
      closing: v('closingDate'),
      effective: v('effectiveDate'),
    }).toEqual({
      buyers: ['Linnea Marsh', 'Corwin Marsh'],
      sellers: ['Halvard Greenleaf'],
      price: 286500,
      financing: 'third_party',
      earnest: 3000,
      closing: '2025-08-22',
      effective: '2025-07-14',
    });
    expect(r.fields.closingDate.citations.map((c) => c.text)).toEqual(['August 22 2025']);
  });

  it('reads a paragraph field only there: a price stated in another paragraph is not taken', () => {
    const r = extractContract({ pageCount: 1, methods: {}, blocks: buildBlocks({ 1: page([row(0.32, [0.08, '30. COUNTER OFFER: Purchase Price: $299,000.00 (not accepted)'])]) }) });
    expect(r.fields.salesPriceTotal.value).toBe(286500);
  });

  it('leaves the financing type empty when neither option is marked', () => {
    const rows = page().map((x) => (x.items[0]?.text.startsWith('✖') ? row(x.top, [0.09, '☐ A. NEW FINANCING: Buyer will obtain a new loan for part of the price.']) : x));
    const r = extractContract({ pageCount: 1, methods: {}, blocks: buildBlocks({ 1: rows }) });
    expect(r.fields.financingType.value).toBeNull();
    expect(r.fields.salesPriceTotal.value).toBe(286500);
  });
});
