import { describe, expect, it } from 'vitest';
import { buildBlocks, row } from '#domain/extraction/block-builder';
import { extractContract } from '#domain/extraction/extract';
import { UNRECOGNIZED_FACTOR } from '#domain/extraction/confidence';

const pages = {
  1: [
    row(0.06, [0.3, 'RESIDENTIAL PURCHASE AGREEMENT']),
    row(0.1, [0.08, 'Effective Date: July 23, 2025']),
    row(0.13, [0.08, 'Buyer(s): Maria Garcia and Luis Garcia']),
    row(0.16, [0.08, 'Seller(s): Peter Wong']),
    row(0.19, [0.08, 'Property Address:']),
    row(0.205, [0.08, '55 Pine Street, Denver, CO 80202']),
    row(0.235, [0.08, 'County: Denver'], [0.5, 'Legal Description: Lot 4, Block 2, Highland Park']),
    row(0.265, [0.08, 'Purchase Price: $510,000.00'], [0.5, 'Loan Amount: $408,000.00']),
    row(0.295, [0.08, 'Earnest Money Deposit: $10,000.00 to be deposited within 3 days']),
    row(0.325, [0.08, 'Escrow Agent/Title Company: Mile High Title LLC']),
    row(0.355, [0.08, 'Inspection Period: 10 days after the Effective Date']),
    row(0.385, [0.08, 'Financing: Conventional loan']),
    row(0.415, [0.08, 'The Buyer shall deliver the Earnest Money to the Escrow Agent. Seller shall provide title.']),
  ],
  2: [
    row(0.1, [0.08, 'Closing Date: August 29, 2025']),
    row(0.13, [0.08, 'Financing Contingency Period: 21 days']),
    row(0.5, [0.08, "Buyer's Agent: Sam Ortiz"], [0.5, 'Listing Agent: Kim Park']),
  ],
};

describe('extractContract — generic residential contract', () => {
  const r = extractContract({ pageCount: 2, blocks: buildBlocks(pages), methods: {} });

  it('is not taken for TREC and reads the core fields by caption', () => {
    expect(r.formType).toBe('generic');
    const v = Object.fromEntries(Object.entries(r.fields).map(([k, f]) => [k, f.value]));
    expect(v).toMatchObject({
      effectiveDate: '2025-07-23',
      buyers: ['Maria Garcia', 'Luis Garcia'],
      sellers: ['Peter Wong'],
      propertyStreet: '55 Pine Street',
      propertyCity: 'Denver',
      propertyState: 'CO',
      propertyZip: '80202',
      county: 'Denver',
      legalDescription: 'Lot 4, Block 2, Highland Park',
      salesPriceTotal: 510000,
      salesPriceFinanced: 408000,
      earnestMoney: 10000,
      escrowAgent: 'Mile High Title LLC',
      optionPeriodDays: 10,
      financingType: 'third_party',
      closingDate: '2025-08-29',
      financingDeadlineDays: 21,
      buyerAgent: 'Sam Ortiz',
      listingAgent: 'Kim Park',
    });
  });

  it('weighs confidence from the evidence, below the unrecognized-form factor, and always reviews the result', () => {
    const found = Object.values(r.fields).filter((f) => f.value !== null);
    expect(found.every((f) => f.confidence > 0.5 && f.confidence <= UNRECOGNIZED_FACTOR)).toBe(true);
    // Not one constant: the address read below its caption is less certain than the price on its label's row.
    expect(r.fields.propertyStreet.confidence).toBeLessThan(r.fields.salesPriceTotal.confidence);
    expect(r.requiresReview).toBe(true);
  });

  it('computes key dates from the inspection and financing periods', () => {
    expect(r.keyDates.map((k) => [k.keyDateType, k.dateValue, k.calculationNotes])).toEqual([
      ['ClosingDate', '2025-08-29', 'Closing Date 2025-08-29 as written (contract)'],
      ['InspectionDeadline', '2025-08-02', 'Effective Date 2025-07-23 + 10 days (inspection period); falls on Saturday 2025-08-02 — not extended: no weekend or holiday rule applied to a generic contract; check its time-computation clause'],
      ['FinancingDeadline', '2025-08-13', 'Effective Date 2025-07-23 + 21 days (financing contingency)'],
    ]);
  });

  it('cites the caption value on its page', () => {
    expect(r.fields.closingDate.citations).toEqual([
      { page: 2, text: 'August 29, 2025', boundingBox: expect.objectContaining({ top: 0.1 }) },
    ]);
  });

  it('reports required fields a generic contract lacks', () => {
    const bare = extractContract({ pageCount: 1, blocks: buildBlocks({ 1: [row(0.1, [0.1, 'Purchase Price: $300,000'])] }), methods: {} });
    expect(bare.fields.salesPriceTotal.value).toBe(300000);
    expect(bare.fields.buyers.warnings).toEqual(['required field missing']);
    expect(bare.warnings).toContain(
      'required fields missing: propertyStreet, propertyCity, propertyZip, buyers, sellers, effectiveDate, closingDate',
    );
    expect(bare.requiresReview).toBe(true);
  });
});
