/** Document classification, the file checks, the purchase baseline and apply-time override rules (pure, no I/O). */
import { describe, expect, it } from 'vitest';
import { classifyDocument, classifyText, pdfProblem, purchaseBaseline, typeFromExtraction } from '#domain/documents';
import { applyOverrides, keyDatesAfterOverrides, parseOverrides, plannedContacts, plannedStarterTasks } from '#domain/apply-extraction';
import { extractionResult } from '../e2e/documents-fixtures.ts';

describe('classification', () => {
  it.each([
    ['TREC 20-18 One to Four Family Residential Contract.pdf', 'purchase_contract'],
    ['executed_contract_signed.pdf', 'purchase_contract'],
    ['Third Party Financing Addendum 40-11.pdf', 'financing_addendum'],
    ['HOA-addendum.pdf', 'hoa_addendum'],
    ['Earnest money receipt.pdf', 'earnest_money_receipt'],
    ["Seller's Disclosure Notice OP-H.pdf", 'sellers_disclosure'],
    ['T-47 survey affidavit.pdf', 'survey'],
    ['title commitment GF 12345.pdf', 'title_commitment'],
    ['scan0001.pdf', undefined],
  ])('%s → %s', (name, type) => {
    expect(classifyText(name)).toBe(type);
  });

  it('a declared type wins over the file name; an unrecognized declaration falls back to the file name', () => {
    expect(classifyDocument('survey', 'contract.pdf')).toEqual({ documentType: 'survey', source: 'declared' });
    expect(classifyDocument('Earnest Money Receipt', 'x.pdf')).toEqual({ documentType: 'earnest_money_receipt', source: 'declared' });
    expect(classifyDocument(null, 'contract.pdf')).toEqual({ documentType: 'purchase_contract', source: 'filename' });
    expect(classifyDocument('misc', 'x.pdf')).toEqual({ documentType: 'other', source: 'filename' });
    expect(typeFromExtraction('TREC 20-18')).toBe('purchase_contract');
    expect(typeFromExtraction('generic')).toBeUndefined();
  });

  it('file checks: empty, too large, not a PDF', () => {
    const pdf = Buffer.from('%PDF-1.7');
    expect(pdfProblem(0, new Uint8Array())).toBe('empty_file');
    expect(pdfProblem(26 * 1024 * 1024, pdf)).toBe('file_too_large');
    expect(pdfProblem(10, Buffer.from('PK\u0003\u0004zip'))).toBe('not_pdf');
    expect(pdfProblem(8, pdf)).toBeUndefined();
  });
});

describe('purchase baseline', () => {
  const types = (facts: Parameters<typeof purchaseBaseline>[0]) => purchaseBaseline(facts).map((r) => r.documentType);
  it('adds the financing addendum only for a known non-cash financing, the HOA addendum only for hoa true', () => {
    const base = ['purchase_contract', 'earnest_money_receipt', 'sellers_disclosure', 'title_commitment', 'survey'];
    expect(types(null)).toEqual(base);
    expect(types({ financingType: 'cash', hoa: false })).toEqual(base);
    expect(types({ financingType: null, hoa: null })).toEqual(base);
    expect(types({ financingType: 'seller_financing', hoa: true })).toEqual(['purchase_contract', 'earnest_money_receipt', 'sellers_disclosure', 'financing_addendum', 'hoa_addendum', 'title_commitment', 'survey']);
  });
});

describe('apply rules', () => {
  it('overrides are normalized; the result’s key dates are kept unless a date input is overridden', () => {
    const result = extractionResult();
    const { values, errors } = parseOverrides({ propertyState: 'tx', propertyZip: ' 78704 ', closingDate: '2030-05-01T17:00:00-05:00', buyers: [' Ann Lee '] });
    expect(errors).toEqual({});
    expect(values).toEqual({ propertyState: 'TX', propertyZip: '78704', closingDate: '2030-05-01', buyers: ['Ann Lee'] });
    const fields = applyOverrides(result.fields, values);
    expect(fields.closingDate).toEqual({ value: '2030-05-01', confidence: 1, citations: [], warnings: ['overridden when applied'] });
    expect(keyDatesAfterOverrides(result, fields, ['propertyState'])).toBe(result.keyDates);
    expect(keyDatesAfterOverrides(result, fields, ['closingDate']).find((k) => k.keyDateType === 'ClosingDate')?.dateValue).toBe('2030-05-01');
  });

  it('parties with roles, and starter tasks only for key dates the deal has', () => {
    const roles = plannedContacts(extractionResult().fields).map((c) => `${c.role}:${c.name}`);
    expect(roles).toEqual(['Buyer:Maria Delgado', 'Buyer:Luis Delgado', 'Seller:Robert Chen', "Buyer's Agent:Jenna Park", 'Listing Agent:Tom Reyes', 'Escrow Officer / Title:Hill Country Title']);
    expect(plannedStarterTasks({ ClosingDate: '2030-04-15', InspectionDeadline: '2030-03-09' }).map((t) => [t.linkedKeyDate, t.dueDate])).toEqual([
      ['InspectionDeadline', '2030-03-07'],
      ['ClosingDate', '2030-04-13'],
    ]);
  });
});
