/**
 * The real-world set (test/fixtures/real-world) end to end through the local OCR adapter (text layer) and
 * `extractContract`: each form recognized as labelled, the core fields (closing date, price, Effective Date,
 * parties) exact on every variation, and on unrecognized forms no field reported with confidence ≥ 0.5 that is
 * wrong. Image-only copies of the set are read by the bench; here only the numbered-paragraph form's noisy scan
 * (two pages; tesseract is slow).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { localOcr, terminateLocalOcr } from '#ports/ocr-local';
import { extractContract } from '#domain/extraction/extract';
import { compareFields } from '#domain/extraction/accuracy';
import { CBS1_VALUES, REAL_WORLD_FIXTURES } from '#test/fixtures/real-world/index';
import { valuesAboveLines } from '#test/fixtures/real-world/association';
import { writePdf } from '#test/fixtures/real-world/writer';
import { noisyScanCopy } from '#test/fixtures/real-world/scan-noise';

afterAll(() => terminateLocalOcr());

/** Each fixture's extraction, built and read once per file (the e-signed TREC fills the 11-page form). */
const results = new Map<string, ReturnType<typeof extractContract>>();
async function read(name: string) {
  if (!results.has(name)) {
    const fx = REAL_WORLD_FIXTURES.find((f) => f.name === name)!;
    results.set(name, extractContract(await localOcr.analyze(await fx.build())));
  }
  return results.get(name)!;
}

const CORE = ['closingDate', 'salesPriceTotal', 'effectiveDate', 'buyers', 'sellers'] as const;

describe.each(REAL_WORLD_FIXTURES.map((f) => [f.name, f] as const))('real-world %s', (_, fx) => {
  it(`is read as ${fx.formType}, core fields exact${fx.recognized ? ', every field exact' : ', nothing confidently wrong'}`, async () => {
    const r = await read(fx.name);
    expect(r.formType).toBe(fx.formType);
    const rows = compareFields(fx.expected, r.fields);
    for (const field of CORE) expect({ field, value: r.fields[field].value }).toEqual({ field, value: fx.expected[field] });
    if (fx.recognized) expect(rows.filter((x) => !x.exact).map((x) => x.field)).toEqual([]);
    const confidentWrong = rows.filter((x) => x.actual !== null && !x.exact && x.confidence >= 0.5);
    expect(confidentWrong).toEqual([]);
    if (!fx.recognized) expect(r.requiresReview).toBe(true);
  }, 60_000);
});

describe('real-world details', () => {
  it('CBS1: deadlines from the §3.1 table, cited by item number, moved by the §3.3 "Will" election', async () => {
    const r = await read('cbs1-8-24');
    const byType = Object.fromEntries(r.keyDates.map((k) => [k.keyDateType, k]));
    expect(byType.ClosingDate).toMatchObject({ dateValue: CBS1_VALUES.deadlines['Closing Date'], calculationNotes: expect.stringContaining('CBS1-8-24 §3.1 item 35') });
    // 2025-08-02 is a Saturday: "Will" is checked, so the deadline moves to Monday.
    expect(byType.InspectionDeadline).toMatchObject({ dateValue: '2025-08-04', calculationNotes: expect.stringContaining('item 27 (§ 10.3 Inspection Objection Deadline)') });
    expect(byType.EarnestMoneyDue.dateValue).toBe('2025-07-23');
    expect(byType.FinancingDeadline.dateValue).toBe('2025-08-22');
    // "N/A" in the survey row: no survey deadline.
    expect(byType.SurveyDeadline).toBeUndefined();
    expect(r.fields.effectiveDate.value).toBe(CBS1_VALUES.sellerSigned);
  }, 60_000);

  it('TREC 20-15: the option period and fee cite ¶23, the earnest money ¶5', async () => {
    const r = await read('trec-20-15');
    const notes = Object.fromEntries(r.keyDates.map((k) => [k.keyDateType, k.calculationNotes]));
    expect(notes.InspectionDeadline).toBe('Effective Date 2025-08-11 + 7 days (TREC 20-15 ¶23)');
    expect(notes.OptionFeeDue).toBe('Effective Date 2025-08-11 + 3 days (TREC 20-15 ¶23)');
    expect(notes.EarnestMoneyDue).toBe('Effective Date 2025-08-11 + 3 days (TREC 20-15 ¶5)');
  }, 60_000);

  it('the e-signed TREC 20-18 reads the dates typed above their lines, never the stamp beside them', async () => {
    const r = await read('trec-20-18-esigned');
    expect(r.fields.closingDate).toMatchObject({ value: '2025-08-29', warnings: ['read above the blank'] });
    expect(r.fields.closingDate.citations[0]).toMatchObject({ page: 5, text: 'August 29, 2025' });
    expect(r.fields.effectiveDate.citations[0]).toMatchObject({ page: 9, text: '07/20/2025' });
  }, 60_000);

  it('the numbered-paragraph form, scanned (rotated, speckled, stamped): values inside paragraphs read by OCR, nothing confidently wrong', async () => {
    const fx = REAL_WORLD_FIXTURES.find((f) => f.name === 'assoc-numbered-paragraphs')!;
    const ocr = await localOcr.analyze(await noisyScanCopy(await fx.build(), 150));
    expect(Object.values(ocr.methods)).toEqual(['tesseract', 'tesseract']);
    const r = extractContract(ocr);
    for (const field of [...CORE, 'earnestMoney', 'financingType'] as const) expect({ field, value: r.fields[field].value }).toEqual({ field, value: fx.expected[field] });
    expect(compareFields(fx.expected, r.fields).filter((x) => x.actual !== null && !x.exact)).toEqual([]);
    expect(r.fields.closingDate.citations[0].page).toBe(1);
  }, 240_000);

  it('an unrecognized form whose price is stated twice, differently, reports no price and says why', async () => {
    const { pages } = valuesAboveLines();
    // A second, different price on page 2 (e.g. an unexecuted earlier draft's summary).
    pages[1].push({ y: 300, runs: [{ x: 72, text: 'Purchase Price: $381,500.00' }] });
    const r = extractContract(await localOcr.analyze(await writePdf(pages)));
    expect(r.fields.salesPriceTotal.value).toBeNull();
    expect(r.fields.salesPriceTotal.warnings[0]).toMatch(/^conflicting values: '\$318,500.00' \(p1\) vs '\$381,500.00' \(p2\)/);
  }, 60_000);
});
