/**
 * Plausibility rules shared by every reader (shared/domain/extraction/plausibility.ts), the checked-option rule
 * for financing (plausible.ts `checkedFinancing`) and evidence-weighed confidence (confidence.ts), each from a
 * realistic variation of what executed contracts and their OCR produce. All names are invented.
 */
import { describe, expect, it } from 'vitest';
import { buildBlocks, row } from '#domain/extraction/block-builder';
import { extractContract } from '#domain/extraction/extract';
import { emptyFields, found } from '#domain/extraction/fields';
import { agentNameProblem, applyPlausibility, dateYearProblem, partyNamesProblem } from '#domain/extraction/plausibility';
import { checkedFinancing } from '#domain/extraction/plausible';
import { splitNames } from '#domain/extraction/normalize';
import { CONFLICT_CAP, OCR_SINGLE_SOURCE_FACTOR, UNRECOGNIZED_FACTOR, weighEvidence } from '#domain/extraction/confidence';
import { ocrEvidence } from '#domain/extraction/fields';
import type { Token } from '#domain/extraction/lines';
import type { Citation, ContractFields } from '#domain/extraction/types';

const cite = (text: string, page = 1, top = 0.1, left = 0.1): Citation => ({ page, text, boundingBox: { left, top, width: 0.2, height: 0.012 } });
const field = <T>(value: T, text: string, confidence = 0.95, at?: Partial<Citation>) => ({ value, confidence, citations: [{ ...cite(text), ...at }], warnings: [] as string[] });

describe('party names', () => {
  it('refuses contract prose read as a party: clause words, parentheses and quotes, runs of words', () => {
    expect(partyNamesProblem(['Any Closing Agent or Escrow Agent (collectively "Agent") receiving the'])).toMatch(/parentheses or quotes/);
    // The ¶2–¶3 run an OCR'd TREC 20-18 gave as buyers when the "(Buyer)" boundary was misread.
    const run = splitNames(
      'Tamsin Okoro (Buyer). Seller agrees to sell and convey to Buyer and Buyer agrees to buy from Seller the Property defined below. ' +
        'PROPERTY: The land, improvements and accessories are collectively referred to as the Property',
    );
    expect(partyNamesProblem(run)).not.toBeNull();
    // About 90 words of a fixture page read as sellers.
    const words = Array.from({ length: 90 }, (_, i) => ['Selleyand', 'Countyof', 'Haris', 'Addition', 'City'][i % 5]).join(' ');
    expect(partyNamesProblem(splitNames(words))).toMatch(/words|characters/);
    expect(partyNamesProblem(['Agent(s) about the availability'])).not.toBeNull();
    expect(partyNamesProblem(['Seller shall deliver'])).toMatch(/clause word/);
  });

  it('accepts names as contracts write them: initials, hyphens, suffixes, trustees, entities, "May"', () => {
    expect(partyNamesProblem(['Cornelius Augustin Vandersloot-Pemberton, Trustee', 'Genevieve Rosalind Blackwood'])).toBeNull();
    expect(partyNamesProblem(['Bartholomew Alexander Fitzwilliam-Thornbury III'])).toBeNull();
    expect(partyNamesProblem(['Jordan P. Alvarez', 'Casey M. Alvarez'])).toBeNull();
    expect(partyNamesProblem(['Pine Ridge Holdings 2 LLC'])).toBeNull();
    expect(partyNamesProblem(['May Ostrander', 'Will Ostrander'])).toBeNull();
    expect(partyNamesProblem(['TajanaBozic'])).toBeNull(); // OCR glued the words: still a name, read as written
  });
});

describe('agent and escrow names', () => {
  it('refuses the clause text the generic reader took for an escrow agent', () => {
    expect(agentNameProblem('Any Closing Agent or Escrow Agent (collectively "Agent") receiving the')).not.toBeNull();
    expect(agentNameProblem('Agent(s) about the availability and benefits of closing protection')).not.toBeNull();
    expect(agentNameProblem('the title agent shall be chosen by the Buyer at its own cost and expense')).toMatch(/clause word|words/);
  });

  it('accepts companies and people', () => {
    for (const ok of ['Dakota Plains Abstract & Title Co.', 'Summit Closing Services LLC', 'Balcones Ridge Title LLC', 'Marisol Okafor', 'Live Oak Lantern Realty']) {
      expect(agentNameProblem(ok), ok).toBeNull();
    }
  });
});

describe('dates need a written year', () => {
  it('refuses a date from a revision mark or with no year written', () => {
    expect(dateYearProblem('2000-01-11', [cite('FloridaRealtors/FloridaBar-ASIS-6 Rev. 1/11')])).toMatch(/revision mark/);
    expect(dateYearProblem('2000-01-11', [cite('1/11')])).toMatch(/not written/);
    expect(dateYearProblem('2025-08-29', [cite('August 29')])).toMatch(/not written/);
  });

  it('accepts four-digit years, two-digit numeric years and a year split by the printed century', () => {
    expect(dateYearProblem('2025-08-29', [cite('August 29, 20 25')])).toBeNull();
    expect(dateYearProblem('2025-07-20', [cite('07/20/25')])).toBeNull();
    expect(dateYearProblem('2025-08-29', [cite('Auqust 29, 2O25')])).toBeNull(); // OCR's O for 0 is folded
    expect(dateYearProblem('2025-08-22', [cite('August'), cite('22'), cite('2025')])).toBeNull();
  });
});

describe('applyPlausibility on a reader result', () => {
  const base = (): ContractFields => {
    const f = emptyFields();
    f.effectiveDate = field('2024-03-04', '03/04/2024');
    f.closingDate = field('2024-04-15', 'April 15, 2024');
    return f;
  };

  it('drops both dates when the closing falls outside 0–365 days of the Effective Date', () => {
    const f = base();
    f.closingDate = field('2000-01-11', 'Closing: 1/11/2000');
    expect(applyPlausibility(f)).toEqual(['closingDate', 'effectiveDate']);
    expect(f.closingDate.warnings[0]).toMatch(/^not plausible: Closing Date 2000-01-11 is -8819 days after the Effective Date 2024-03-04/);
    const late = base();
    late.closingDate = field('2025-06-01', 'June 1, 2025');
    applyPlausibility(late);
    expect(late.closingDate.value).toBeNull();
  });

  it('keeps a closing date with no Effective Date to check it against, less confident and saying so', () => {
    const f = base();
    f.effectiveDate = emptyFields().effectiveDate;
    applyPlausibility(f);
    expect(f.closingDate).toMatchObject({ value: '2024-04-15', confidence: 0.76, warnings: ['no Effective Date to check the Closing Date against'] });
  });

  it('drops an earnest money that is the Option Fee (OCR read the ¶5 fee blank)', () => {
    const f = base();
    f.optionFee = field(200, '200.00', 0.9, { boundingBox: { left: 0.5, top: 0.3, width: 0.1, height: 0.01 } });
    f.earnestMoney = field(200, '200.00', 0.83, { boundingBox: { left: 0.5, top: 0.3, width: 0.1, height: 0.01 } });
    applyPlausibility(f);
    expect(f.earnestMoney.value).toBeNull();
    expect(f.earnestMoney.warnings[0]).toMatch(/Option Fee's amount/);
    const distinct = base();
    distinct.optionFee = field(200, '200.00', 0.9, { boundingBox: { left: 0.5, top: 0.3, width: 0.1, height: 0.01 } });
    distinct.earnestMoney = field(5000, '5,000.00', 0.9, { boundingBox: { left: 0.5, top: 0.2, width: 0.1, height: 0.01 } });
    applyPlausibility(distinct);
    expect(distinct.earnestMoney.value).toBe(5000);
  });

  it('keeps an earnest money under 0.2 % of the price, less confident and saying so', () => {
    const f = base();
    f.salesPriceTotal = field(385000, '385,000.00');
    f.earnestMoney = field(200, '200.00', 0.9);
    applyPlausibility(f);
    expect(f.earnestMoney).toMatchObject({ value: 200, confidence: 0.54, warnings: ['earnest money 200 is under 0.2 % of the price 385000'] });
  });
});

describe('financing only from a checked option', () => {
  it('reads the marked option of a list, whatever the mark', () => {
    expect(checkedFinancing('☐ Cash ☒ Conventional loan')).toBe('third_party');
    expect(checkedFinancing('(a) X Buyer will pay cash for the Property with no financing contingency. (b) ☐ This Contract is contingent upon Buyer obtaining a loan')).toBe('cash');
    expect(checkedFinancing('✖ A. NEW FINANCING: Buyer will obtain a loan ☐ B. CASH: Buyer will pay cash')).toBe('third_party');
    // A PDF text layer of ZapfDingbats without a Unicode map: "6" is ✖, "o" the empty box.
    expect(checkedFinancing('6 A. NEW FINANCING: Buyer will obtain a loan o B. CASH: Buyer will pay cash')).toBe('third_party');
    expect(checkedFinancing('[X] Seller Financing [ ] Loan Assumption')).toBe('seller_financing');
  });

  it('gives nothing when no option or two kinds are checked, or for prose', () => {
    expect(checkedFinancing('☐ Cash ☐ Conventional loan')).toBeNull();
    expect(checkedFinancing('☒ Cash ☒ FHA loan')).toBeNull();
    expect(checkedFinancing('This Contract is contingent upon Buyer obtaining a loan within 30 days')).toBeNull();
    expect(checkedFinancing('Conventional loan')).toBe('third_party'); // a typed value
  });

  it('leaves a cash contract with both options unmarked without a financing type (generic reader)', () => {
    const r = extractContract({
      pageCount: 1,
      methods: {},
      blocks: buildBlocks({
        1: [
          row(0.1, [0.08, 'Purchase Price: $412,000.00']),
          row(0.13, [0.08, 'Financing: ☐ Cash ☐ Conventional ☐ FHA ☐ VA']),
        ],
      }),
    });
    expect(r.fields.financingType.value).toBeNull();
  });
});

describe('confidence weighed from evidence', () => {
  it('lowers values of unrecognized forms and caps conflicting ones below 0.5', () => {
    const f = emptyFields();
    f.salesPriceTotal = found(318500, [[{ text: '$318,500.00', key: '', page: 1, box: { left: 0.2, top: 0.2, width: 0.1, height: 0.01 }, confidence: 99 }]], 1);
    f.sellers = { ...found(['Wendeline Thorsby'], [[]], 1), warnings: ["conflicting values: 'Wendeline Thorsby' (p1) vs 'Wendy Thorsby' (p2)"] };
    weighEvidence(f, false);
    expect(f.salesPriceTotal.confidence).toBeCloseTo(0.99 * UNRECOGNIZED_FACTOR, 3);
    expect(f.sellers.confidence).toBe(CONFLICT_CAP);
    expect(f.sellers.warnings).toContain('low confidence');
  });

  it('judges an OCR value by its weakest word: "ll___" for "III" at 24 % sinks the whole name', () => {
    const tok = (text: string, confidence: number): Token => ({ text, key: '', page: 1, box: { left: 0.1, top: 0.1, width: 0.05, height: 0.01 }, confidence });
    expect(ocrEvidence([tok('Bartholomew', 96), tok('Fitzwilliam-Thornbury', 84), tok('ll___', 24)])).toBeCloseTo(0.24 ** 1.5, 5);
    expect(ocrEvidence([tok('Cordelia', 99), tok('Ashgrove', 99)])).toBeCloseTo(0.99, 5); // a text layer: the mean
  });

  it('does not trust free text read by OCR from one place (a confident letter misread), but does when two places agree', () => {
    const f = emptyFields();
    f.sellers = field(['Cordelia Asharove'], 'Cordelia Asharove', 0.92);
    f.buyers = { ...field(['Tobias Renfield'], 'Tobias Renfield', 0.92), citations: [cite('Tobias Renfield', 1, 0.12), cite('Tobias Renfield', 9, 0.6)] };
    f.salesPriceTotal = field(450000, '450,000.00', 0.92);
    weighEvidence(f, true, { 1: 'tesseract', 9: 'tesseract' });
    expect(f.sellers.confidence).toBeCloseTo(0.92 * OCR_SINGLE_SOURCE_FACTOR, 3);
    expect(f.buyers.confidence).toBe(0.92);
    expect(f.salesPriceTotal.confidence).toBe(0.92); // not free text: checked by its own format
    const text = emptyFields();
    text.sellers = field(['Cordelia Ashgrove'], 'Cordelia Ashgrove', 0.92);
    weighEvidence(text, true, { 1: 'pdf-text' });
    expect(text.sellers.confidence).toBe(0.92);
  });

  it('gives generic values different confidences by how they were read (not one constant)', () => {
    const r = extractContract({
      pageCount: 1,
      methods: {},
      blocks: buildBlocks({
        1: [
          row(0.1, [0.08, 'Effective Date: July 23, 2025']),
          row(0.13, [0.08, 'Purchase Price: $510,000.00']),
          row(0.16, [0.08, 'Property Address:']),
          row(0.175, [0.08, '55 Pine Street, Denver, CO 80202']),
          row(0.2, [0.08, 'Closing Date: August 29, 2025', 70]),
        ],
      }),
    });
    const c = (n: keyof ContractFields) => r.fields[n].confidence;
    expect(c('salesPriceTotal')).toBeGreaterThan(c('propertyStreet')); // on the label's row vs below its caption
    expect(c('salesPriceTotal')).toBeGreaterThan(c('closingDate')); // OCR confidence 70 vs 99
    expect(r.requiresReview).toBe(true);
  });
});
