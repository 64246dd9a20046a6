/**
 * Generic (non-TREC) contracts end to end: a synthetic two-page "Residential Purchase Agreement" drawn with
 * pdf-lib, read by the local OCR adapter (PDF text layer), extracted by `extractContract`.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { localOcr, terminateLocalOcr } from '#ports/ocr-local';
import { extractContract } from '#domain/extraction/extract';

afterAll(() => terminateLocalOcr());

/** Lines per page: [x pt, y pt from the top, text, size?]. */
type Line = [number, number, string, number?];

async function makePdf(pages: Line[][]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  for (const lines of pages) {
    const page = doc.addPage([612, 792]);
    for (const [x, y, text, size] of lines) {
      page.drawText(text, { x, y: 792 - y, size: size ?? 10, font: size ? bold : font });
    }
  }
  return doc.save();
}

describe('generic residential purchase agreement (pdf-lib → localOcr → extractContract)', () => {
  it('reads the core fields by their captions; the result is always reviewed', async () => {
    const pdf = await makePdf([
      [
        [160, 60, 'RESIDENTIAL PURCHASE AGREEMENT', 14],
        [50, 100, 'Effective Date: September 3, 2025'],
        [50, 125, 'Buyer(s): Maria Garcia and Luis Garcia'],
        [50, 150, 'Seller(s): Peter Wong'],
        [50, 175, 'Property Address:'],
        [50, 190, '55 Pine Street, Denver, CO 80202'],
        [50, 215, 'County: Denver'],
        [320, 215, 'Purchase Price: $510,000.00'],
        [50, 240, 'Earnest Money Deposit: $10,000.00, due within 3 days of the Effective Date.'],
        [50, 265, 'Escrow Agent/Title Company: Mile High Title LLC'],
        [50, 290, 'Due Diligence Period: 12 days'],
        [50, 320, 'The Buyer shall deliver the Earnest Money to the Escrow Agent. Seller shall deliver marketable title.'],
      ],
      [
        [50, 80, 'Closing Date: October 15, 2025'],
        [50, 105, 'Financing: Cash'],
        [50, 400, "Buyer's Agent: Sam Ortiz"],
        [320, 400, 'Listing Agent: Kim Park'],
      ],
    ]);
    const ocr = await localOcr.analyze(pdf);
    expect(ocr.methods).toEqual({ 1: 'pdf-text', 2: 'pdf-text' });
    const r = extractContract(ocr);
    expect(r.formType).toBe('generic');
    const v = Object.fromEntries(Object.entries(r.fields).map(([k, f]) => [k, f.value]));
    expect(v).toEqual({
      propertyStreet: '55 Pine Street',
      propertyCity: 'Denver',
      propertyState: 'CO',
      propertyZip: '80202',
      county: 'Denver',
      legalDescription: null,
      buyers: ['Maria Garcia', 'Luis Garcia'],
      sellers: ['Peter Wong'],
      salesPriceCash: 510000,
      salesPriceFinanced: null,
      salesPriceTotal: 510000,
      financingType: 'cash',
      earnestMoney: 10000,
      optionFee: null,
      optionPeriodDays: 12,
      escrowAgent: 'Mile High Title LLC',
      effectiveDate: '2025-09-03',
      closingDate: '2025-10-15',
      surveyDays: null,
      titleObjectionDays: null,
      hoa: null,
      addenda: null,
      buyerAgent: 'Sam Ortiz',
      buyerBrokerage: null,
      listingAgent: 'Kim Park',
      listingBrokerage: null,
      financingDeadlineDays: null,
    });
    expect(r.confidence).toBeLessThanOrEqual(0.9);
    expect(r.requiresReview).toBe(true);
    expect(r.fields.salesPriceTotal.citations[0]).toMatchObject({ page: 1, text: '$510,000.00' });
    expect(r.keyDates.find((k) => k.keyDateType === 'InspectionDeadline')).toMatchObject({
      dateValue: '2025-09-15',
      calculationNotes: 'Effective Date 2025-09-03 + 12 days (inspection period)',
    });
    expect(r.warnings).toContain('FinancingDeadline not set: no financing addendum gives one');
  });

  it('does not mistake a TREC look-alike without the form number for TREC 20-18', async () => {
    const pdf = await makePdf([[[100, 60, 'ONE TO FOUR FAMILY RESIDENTIAL CONTRACT (RESALE)', 12], [50, 100, 'Purchase Price: $200,000']]]);
    const r = extractContract(await localOcr.analyze(pdf));
    expect(r.formType).toBe('generic');
    expect(r.fields.salesPriceTotal.value).toBe(200000);
  });
});
