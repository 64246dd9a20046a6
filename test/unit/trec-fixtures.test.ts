/**
 * TREC 20-18 test fixtures (test/fixtures/trec): the field map matches the official blank, every value set is
 * consistent and its expectations are derived as documented, and each filled fixture is what extraction tests
 * need — 11 pages, no AcroForm fields left, every value in the text layer on its page and inside its blank —
 * while the image-only copies the OCR tests read (`IMAGE_VALUE_SETS`) have 11 pages of pictures and no text layer.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { openPdf, pdfjs, type PDFDocumentProxy } from '#ports/ocr/pdfjs';
import { ADDENDA, CHECK, HEADER_ADDRESS, MAPPED_FIELDS, OTHER_ADDENDA_BOX, TEXT, TREC_20_18_FORM } from '../fixtures/trec/field-map.ts';
import {
  addressLine,
  blankFields,
  blankTrec2018,
  closingMonthDay,
  fillTrec2018Detailed,
  formatMoney,
  joinNames,
  monthName,
  ordinal,
  planTrecFill,
  yearTwoDigits,
  type BlankField,
} from '../fixtures/trec/fill.ts';
import { IMAGE_VALUE_SETS, VALUE_SETS, VALUE_SET_NAMES, checkConsistency, expectedFields, type ValueSetName } from '../fixtures/trec/value-sets.ts';
import { buildFixture, clearFixtureMemoryCache, type TrecFixture } from '../fixtures/trec/build-fixtures.ts';

/**
 * The per-set checks build fresh (no disk cache) and read only the text layer; a dpi of their own keeps those builds
 * apart from the cached image-only copies below (fixtures are memoized per name and dpi).
 */
const TEST_DPI = 72;

interface PageText {
  /** Text items of the page, as drawn. */
  items: { str: string; x: number; y: number; width: number }[];
}

async function textLayer(doc: PDFDocumentProxy): Promise<PageText[]> {
  const pages: PageText[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const tc = await page.getTextContent();
    pages.push({
      items: tc.items.flatMap((it) =>
        'str' in it && it.str.trim() ? [{ str: it.str, x: it.transform[4], y: it.transform[5], width: it.width }] : [],
      ),
    });
  }
  return pages;
}

let blank: Map<string, BlankField>;

beforeAll(async () => {
  blank = await blankFields();
});

describe('TREC 20-18 field map', () => {
  it('names fields that exist in the blank, of the right kind, on the page stated, each once', async () => {
    const doc = await PDFDocument.load(await blankTrec2018());
    expect(doc.getPageCount()).toBe(TREC_20_18_FORM.pageCount);
    expect(blank.size).toBe(TREC_20_18_FORM.fieldCount);

    const names = MAPPED_FIELDS.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    const textRefs = [...Object.values(TEXT), ...HEADER_ADDRESS];
    const boxRefs = [...Object.values(CHECK), ...Object.values(ADDENDA), OTHER_ADDENDA_BOX];
    for (const ref of textRefs) expect(blank.get(ref.name), ref.name).toMatchObject({ kind: 'text', page: ref.page });
    for (const ref of boxRefs) expect(blank.get(ref.name), ref.name).toMatchObject({ kind: 'checkbox', page: ref.page });
    expect(HEADER_ADDRESS.map((h) => h.page)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(Object.keys(ADDENDA)).toHaveLength(21);
    // The two-digit year box of page 9 accepts two characters only.
    expect(blank.get(TEXT.executedYear2.name)?.maxLength).toBe(2);
  });
});

describe('TREC 20-18 value sets', () => {
  it.each(VALUE_SET_NAMES)('%s is internally consistent', (name) => {
    expect(checkConsistency(VALUE_SETS[name])).toEqual([]);
  });

  it('weekendOptionEnd ends its option period on a weekend, holidayOptionEnd on Christmas Day', () => {
    const end = (v: { effectiveDate: string; optionPeriodDays?: number }) =>
      new Date(Date.parse(`${v.effectiveDate}T00:00:00Z`) + (v.optionPeriodDays ?? NaN) * 86_400_000);
    expect([0, 6]).toContain(end(VALUE_SETS.weekendOptionEnd).getUTCDay());
    expect(end(VALUE_SETS.weekendOptionEnd).toISOString().slice(0, 10)).toBe('2025-07-19');
    expect(end(VALUE_SETS.holidayOptionEnd).toISOString().slice(0, 10)).toBe('2025-12-25');
  });

  it('derives the expected extractor output exactly (cashPurchase)', () => {
    expect(expectedFields(VALUE_SETS.cashPurchase)).toEqual({
      propertyStreet: '4812 Bramblewood Ln',
      propertyCity: 'Austin',
      propertyState: 'TX',
      propertyZip: '78745',
      county: 'Travis',
      legalDescription: 'Lot 14, Block C, Bramblewood Estates Section 2 Addition',
      buyers: ['Lydia Marchetti'],
      sellers: ['Harold P. Whitcombe'],
      salesPriceCash: 385_000,
      salesPriceFinanced: null,
      salesPriceTotal: 385_000,
      financingType: 'cash',
      earnestMoney: 5_000,
      optionFee: 300,
      optionPeriodDays: 7,
      escrowAgent: 'Capitol Crest Title LLC',
      effectiveDate: '2025-08-11',
      closingDate: '2025-09-12',
      surveyDays: 5,
      titleObjectionDays: 10,
      hoa: false,
      addenda: [],
      buyerAgent: 'Marisol Okafor',
      buyerBrokerage: 'Live Oak Lantern Realty',
      listingAgent: 'Trent Vandermeer',
      listingBrokerage: 'Pecan Hollow Property Group',
      financingDeadlineDays: null,
    });
  });

  it('derives financing, HOA, addenda in form order, and nulls for blank optional fields', () => {
    expect(expectedFields(VALUE_SETS.financedPurchase)).toMatchObject({
      salesPriceFinanced: 340_000,
      salesPriceTotal: 425_000,
      financingType: 'third_party',
      hoa: true,
      addenda: ['Third Party Financing Addendum', 'Addendum for Property Subject to Mandatory Membership in a Property Owners Association'],
    });
    expect(expectedFields(VALUE_SETS.weekendOptionEnd).financingType).toBe('seller_financing');
    expect(expectedFields(VALUE_SETS.holidayOptionEnd)).toMatchObject({ financingType: 'loan_assumption', salesPriceTotal: 225_000 });
    expect(expectedFields(VALUE_SETS.twoBuyers)).toMatchObject({
      buyers: ['Nathaniel Brightwater', 'Imogen Brightwater'],
      sellers: ['Percival Oakhurst', 'Delphine Oakhurst'],
      addenda: [
        'Third Party Financing Addendum',
        'Addendum for Property Subject to Mandatory Membership in a Property Owners Association',
        "Addendum Concerning Right to Terminate Due to Lender's Appraisal",
        "Seller's Temporary Residential Lease",
        'Non-Realty Items Addendum',
      ],
    });
    expect(expectedFields(VALUE_SETS.longNames).salesPriceTotal).toBe(1_562_500.5);
    expect(expectedFields(VALUE_SETS.missingOptional)).toMatchObject({
      optionFee: null,
      optionPeriodDays: null,
      surveyDays: null,
      titleObjectionDays: null,
      buyerAgent: null,
      buyerBrokerage: null,
      listingAgent: 'Thaddeus Montaño',
      financingDeadlineDays: null,
    });
  });

  it('formats values the way the form is filled in', () => {
    expect(formatMoney(425_000)).toBe('425,000.00');
    expect(formatMoney(15_625.25)).toBe('15,625.25');
    expect(closingMonthDay('2025-09-12')).toBe('September 12');
    expect(yearTwoDigits('2026-01-30')).toBe('26');
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22].map(ordinal)).toEqual(['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd']);
    expect(joinNames(['A B', 'C D', 'E F'])).toBe('A B, C D and E F');
    expect(() => planTrecFill({ ...VALUE_SETS.cashPurchase, effectiveDate: '2025-02-30' })).toThrow(/YYYY-MM-DD/);
  });
});

describe.each(VALUE_SET_NAMES)('TREC 20-18 fixture %s', (name: ValueSetName) => {
  let fx: TrecFixture;
  let text: PageText[];

  beforeAll(async () => {
    fx = await buildFixture(name, { dpi: TEST_DPI, disk: false });
    const doc = await openPdf(fx.textPdf);
    try {
      expect(doc.numPages).toBe(11);
      text = await textLayer(doc);
      // No form fields (pdf.js) and no widget annotations left on any page.
      expect(await doc.getFieldObjects()).toBeNull();
      for (let n = 1; n <= doc.numPages; n++) {
        const annots = await (await doc.getPage(n)).getAnnotations();
        expect(annots.filter((a: { subtype?: string }) => a.subtype === 'Widget')).toEqual([]);
      }
    } finally {
      await doc.destroy();
    }
  });

  /** Items on a page whose text is exactly `s`. */
  const itemsOn = (page: number, s: string) => text[page - 1].items.filter((i) => i.str.trim() === s);

  it('is 11 pages with no AcroForm fields left (pdf-lib)', async () => {
    const doc = await PDFDocument.load(fx.textPdf);
    expect(doc.getPageCount()).toBe(11);
    expect(doc.getForm().getFields()).toHaveLength(0);
  });

  it('has every written value in the text layer on its page, inside its blank', () => {
    expect(Object.keys(fx.written).length).toBeGreaterThan(25);
    for (const [field, value] of Object.entries(fx.written)) {
      const f = blank.get(field)!;
      const hits = itemsOn(f.page, value);
      expect(hits.length, `${field} = '${value}' on p${f.page}`).toBeGreaterThan(0);
      const inside = hits.filter(
        (h) => h.x >= f.rect.x - 0.5 && h.x + h.width <= f.rect.x + f.rect.width - 1 && h.y >= f.rect.y - 1 && h.y <= f.rect.y + f.rect.height,
      );
      expect(inside.length, `${field} = '${value}' drawn inside its ${f.rect.width.toFixed(0)} pt blank`).toBeGreaterThan(0);
    }
  });

  it('shows the key values where a reader looks for them', () => {
    const v = fx.values;
    const e = expectedFields(v);
    // Page 1: parties, property address, ¶3 prices.
    expect(itemsOn(1, joinNames(v.sellers))).toHaveLength(1);
    expect(itemsOn(1, joinNames(v.buyers))).toHaveLength(1);
    expect(itemsOn(1, addressLine(v.property))).toHaveLength(1);
    expect(itemsOn(1, v.property.addition)).toHaveLength(1);
    expect(itemsOn(1, formatMoney(e.salesPriceTotal!))).not.toHaveLength(0);
    expect(itemsOn(1, formatMoney(v.salesPrice.cash))).not.toHaveLength(0);
    // Header address on pages 2–11.
    for (let p = 2; p <= 11; p++) expect(itemsOn(p, addressLine(v.property)), `header p${p}`).toHaveLength(1);
    // Page 2: ¶5A (the escrow agent is usually also ¶6A's Title Company, on the same page).
    expect(itemsOn(2, v.escrow.agent).length).toBeGreaterThanOrEqual(1);
    expect(itemsOn(2, formatMoney(v.earnestMoney))).toHaveLength(1);
    if (v.optionFee !== undefined) expect(itemsOn(2, formatMoney(v.optionFee))).toHaveLength(1);
    // Page 5: ¶9A closing date; page 9: Effective Date in its three blanks, in reading order.
    expect(itemsOn(5, closingMonthDay(v.closingDate))).toHaveLength(1);
    expect(itemsOn(5, yearTwoDigits(v.closingDate))).not.toHaveLength(0);
    // (Printed "11" / "18" also occur on page 9 — "Page 9 of 11", "TREC NO. 20-18" — so look inside each blank.)
    const inBlank = (ref: { name: string; page: number }, s: string) => {
      const r = blank.get(ref.name)!.rect;
      return itemsOn(ref.page, s).find((i) => i.x >= r.x - 0.5 && i.x <= r.x + r.width && i.y >= r.y - 1 && i.y <= r.y + r.height);
    };
    const day = Number(v.effectiveDate.slice(8, 10));
    const d = inBlank(TEXT.executedDay, v.style?.ordinalDay ? ordinal(day) : String(day));
    const m = inBlank(TEXT.executedMonth, monthName(v.effectiveDate));
    const y = inBlank(TEXT.executedYear2, yearTwoDigits(v.effectiveDate));
    if (!d || !m || !y) throw new Error(`Effective Date ${v.effectiveDate} not found in the page-9 blanks`);
    expect(d.x < m.x && m.x < y.x && Math.abs(d.y - y.y) < 2).toBe(true);
    // Page 10: brokers.
    if (e.listingBrokerage) expect(itemsOn(10, e.listingBrokerage)).toHaveLength(1);
    if (e.buyerAgent) expect(itemsOn(10, e.buyerAgent)).toHaveLength(1);
  });

  it('draws a check mark glyph only in the boxes the values check (¶3B, ¶6E(2), ¶22)', () => {
    // The form's own "On" appearance is a ZapfDingbats "4" (✓) drawn inside the box.
    // (A filled "4" — e.g. Block 4 — is not inside any checkbox, so only glyphs within a box rectangle count.)
    const inBox = (g: { x: number; y: number }, r: BlankField['rect']) => g.x >= r.x - 1 && g.x <= r.x + r.width && g.y >= r.y - 1 && g.y <= r.y + r.height;
    const boxes = [...blank.values()].filter((f) => f.kind === 'checkbox');
    const checksOn = (page: number) =>
      text[page - 1].items.filter((i) => i.str === '4' && boxes.some((b) => b.page === page && inBox(i, b.rect)));
    const plan = planTrecFill(fx.values);
    for (const page of [1, 3, 8]) {
      const planned = plan.checks.filter((c) => c.page === page).map((c) => blank.get(c.name)!.rect);
      const drawn = checksOn(page);
      expect(drawn.length, `p${page}`).toBe(planned.length);
      for (const r of planned) expect(drawn.some((g) => inBox(g, r))).toBe(true);
    }
  });
});

describe.each(IMAGE_VALUE_SETS)('TREC 20-18 image-only copy of %s (the one the OCR tests read)', (name: ValueSetName) => {
  let fx: TrecFixture;
  beforeAll(async () => {
    // The default dpi and the disk cache: the very copy extraction-trec-image.test.ts OCRs, rendered once per run.
    fx = await buildFixture(name);
  });

  it('has an image-only copy: 11 letter pages of pictures, no text layer', async () => {
    const doc = await openPdf(await fx.imagePdf());
    try {
      expect(doc.numPages).toBe(11);
      const { OPS } = await pdfjs();
      for (let n = 1; n <= doc.numPages; n++) {
        const page = await doc.getPage(n);
        expect((await page.getTextContent()).items).toHaveLength(0);
        const ops = await page.getOperatorList();
        expect(ops.fnArray).toContain(OPS.paintImageXObject);
        const vp = page.getViewport({ scale: 1 });
        expect([Math.round(vp.width), Math.round(vp.height)]).toEqual([612, 792]);
      }
    } finally {
      await doc.destroy();
    }
    expect((await PDFDocument.load(await fx.imagePdf())).getForm().getFields()).toHaveLength(0);
  });
});

describe('TREC 20-18 fixture cache', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'trec-fixtures-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('serves the same bytes from memory and, after a restart, from disk', async () => {
    clearFixtureMemoryCache();
    const first = await buildFixture('missingOptional', { dpi: 36, cacheDir: dir, disk: true });
    expect(first.timings.fromDisk).toBe(false);
    await first.imagePdf();
    expect(await buildFixture('missingOptional', { dpi: 36, cacheDir: dir, disk: true })).toBe(first);
    expect((await readdir(dir)).sort()).toEqual(
      expect.arrayContaining([expect.stringMatching(/\.text\.pdf$/), expect.stringMatching(/\.meta\.json$/), expect.stringMatching(/\.36dpi\.image\.pdf$/)]),
    );

    clearFixtureMemoryCache();
    const again = await buildFixture('missingOptional', { dpi: 36, cacheDir: dir, disk: true });
    expect(again.timings).toEqual({ fillMs: 0, imageMs: 0, fromDisk: true });
    expect(Buffer.from(again.textPdf).equals(Buffer.from(first.textPdf))).toBe(true);
    expect(Buffer.from(await again.imagePdf()).equals(Buffer.from(await first.imagePdf()))).toBe(true);
    expect(again.written).toEqual(first.written);
    clearFixtureMemoryCache();
  });

  it('re-fills identically, byte for byte (no fill-time metadata dates)', async () => {
    const a = await fillTrec2018Detailed(VALUE_SETS.twoBuyers);
    await new Promise((r) => setTimeout(r, 1100)); // a second later: a date written at fill time would differ
    const b = await fillTrec2018Detailed(VALUE_SETS.twoBuyers);
    expect(a.written).toEqual(b.written);
    expect(a.shrunk).toEqual(b.shrunk);
    expect(Buffer.from(a.pdf).equals(Buffer.from(b.pdf))).toBe(true);
  });
});
