import { describe, expect, it } from 'vitest';
import { computeKeyDates, TREC_20_18_TERMS } from '#domain/extraction/key-dates';
import { emptyFields, found } from '#domain/extraction/fields';
import type { ContractFields } from '#domain/extraction/types';

/** Fields with the given values (everything else missing). */
function fields(values: Partial<{ [K in keyof ContractFields]: ContractFields[K]['value'] }>): ContractFields {
  const f = emptyFields();
  for (const [k, v] of Object.entries(values)) (f as unknown as Record<string, unknown>)[k] = found(v, [], 1);
  return f;
}

const base = {
  effectiveDate: '2025-07-20',
  closingDate: '2025-08-29',
  optionPeriodDays: 5,
  earnestMoney: 5000,
  optionFee: 250,
  surveyDays: 10,
  titleObjectionDays: 7,
};

const byType = (r: ReturnType<typeof computeKeyDates>) => Object.fromEntries(r.keyDates.map((k) => [k.keyDateType, k]));

describe('computeKeyDates — TREC 20-18', () => {
  it('computes every date with its paragraph in the notes', () => {
    const r = computeKeyDates(fields(base), 'TREC 20-18');
    const k = byType(r);
    expect(k.ClosingDate).toEqual({
      keyDateType: 'ClosingDate',
      dateValue: '2025-08-29',
      label: 'Closing Date',
      calculationNotes: 'Closing Date 2025-08-29 as written (TREC 20-18 ¶9A)',
      source: 'extraction',
    });
    expect(k.InspectionDeadline.dateValue).toBe('2025-07-25');
    expect(k.InspectionDeadline.calculationNotes).toBe('Effective Date 2025-07-20 + 5 days (TREC 20-18 ¶5B)');
    expect(k.EarnestMoneyDue.dateValue).toBe('2025-07-23');
    expect(k.EarnestMoneyDue.calculationNotes).toBe('Effective Date 2025-07-20 + 3 days (TREC 20-18 ¶5A)');
    expect(k.OptionFeeDue.dateValue).toBe('2025-07-23');
    expect(k.SurveyDeadline.dateValue).toBe('2025-07-30');
    expect(k.SurveyDeadline.calculationNotes).toBe('Effective Date 2025-07-20 + 10 days (TREC 20-18 ¶6C)');
    expect(k.TitleObjectionDeadline.dateValue).toBe('2025-08-16');
    expect(k.TitleObjectionDeadline.calculationNotes).toBe(
      'latest delivery deadline 2025-08-09 [Commitment 2025-08-09 (Title Company receipt of the contract assumed on the ' +
        'Effective Date 2025-07-20 + 20 days, TREC 20-18 ¶6B); survey 2025-07-30 (TREC 20-18 ¶6C)] + 7 days ' +
        '(TREC 20-18 ¶6D) = 2025-08-16; assumes delivery on the deadline — recompute from actual receipt of the ' +
        'Commitment, Exception Documents and survey',
    );
    expect(k.FinancingDeadline).toBeUndefined();
    expect(r.warnings).toEqual(['FinancingDeadline not set: no financing addendum gives one']);
  });

  it('extends the earnest money and Option Fee deadlines past a weekend (¶5A(2)) but not the option period', () => {
    const r = computeKeyDates(fields({ ...base, effectiveDate: '2025-07-23', optionPeriodDays: 3 }), 'TREC 20-18');
    const k = byType(r);
    expect(k.EarnestMoneyDue.dateValue).toBe('2025-07-28');
    expect(k.EarnestMoneyDue.calculationNotes).toBe(
      'Effective Date 2025-07-23 + 3 days (TREC 20-18 ¶5A); falls on Saturday 2025-07-26 → extended to Monday 2025-07-28 (TREC 20-18 ¶5A(2))',
    );
    expect(k.OptionFeeDue.dateValue).toBe('2025-07-28');
    expect(k.InspectionDeadline.dateValue).toBe('2025-07-26');
    expect(k.InspectionDeadline.calculationNotes).toBe(
      'Effective Date 2025-07-23 + 3 days (TREC 20-18 ¶5B); falls on Saturday 2025-07-26 — not extended: the form ' +
        'extends only the earnest money, Option Fee and additional earnest money deadlines (TREC 20-18 ¶5A(2))',
    );
  });

  it('extends past a legal holiday and the weekend after it', () => {
    const k = byType(computeKeyDates(fields({ ...base, effectiveDate: '2025-07-01' }), 'TREC 20-18'));
    expect(k.EarnestMoneyDue.dateValue).toBe('2025-07-07');
    expect(k.EarnestMoneyDue.calculationNotes).toBe(
      'Effective Date 2025-07-01 + 3 days (TREC 20-18 ¶5A); falls on legal holiday (Independence Day) 2025-07-04 → extended to Monday 2025-07-07 (TREC 20-18 ¶5A(2))',
    );
  });

  it('skips Thanksgiving, the Texas Friday after, and the weekend (2026)', () => {
    const k = byType(computeKeyDates(fields({ ...base, effectiveDate: '2026-11-23', closingDate: '2026-12-30' }), 'TREC 20-18'));
    expect(k.OptionFeeDue.dateValue).toBe('2026-11-30');
    expect(k.OptionFeeDue.calculationNotes).toContain('falls on legal holiday (Thanksgiving Day) 2026-11-26 → extended to Monday 2026-11-30');
  });

  it('skips December 24, Christmas and December 26 (2027)', () => {
    const k = byType(computeKeyDates(fields({ ...base, effectiveDate: '2027-12-21', closingDate: '2028-01-31' }), 'TREC 20-18'));
    expect(k.EarnestMoneyDue.dateValue).toBe('2027-12-27');
  });

  it('leaves a weekend closing date as written and warns', () => {
    const r = computeKeyDates(fields({ ...base, closingDate: '2025-08-30' }), 'TREC 20-18');
    const k = byType(r);
    expect(k.ClosingDate.dateValue).toBe('2025-08-30');
    expect(k.ClosingDate.calculationNotes).toMatch(/^Closing Date 2025-08-30 as written \(TREC 20-18 ¶9A\); falls on Saturday 2025-08-30 — not extended/);
    expect(r.warnings).toContain('ClosingDate 2025-08-30 falls on Saturday; not extended');
  });

  it('uses the Closing Date for objections when it is earlier (¶6D(i))', () => {
    const k = byType(computeKeyDates(fields({ ...base, closingDate: '2025-08-10' }), 'TREC 20-18'));
    expect(k.TitleObjectionDeadline.dateValue).toBe('2025-08-10');
    expect(k.TitleObjectionDeadline.calculationNotes).toMatch(/the Closing Date 2025-08-10 is earlier and governs \(TREC 20-18 ¶6D\(i\)\)$/);
  });

  it("counts the Commitment from the Title Company's receipt date when the contract receipt is filled", () => {
    const k = byType(computeKeyDates(fields(base), 'TREC 20-18', { ...TREC_20_18_TERMS, titleCompanyReceiptDate: '2025-07-22' }));
    expect(k.TitleObjectionDeadline.dateValue).toBe('2025-08-18');
    expect(k.TitleObjectionDeadline.calculationNotes).toContain('Title Company received the contract 2025-07-22 + 20 days');
  });

  it('reads N of ¶5A from the terms given (a different printed number)', () => {
    const k = byType(computeKeyDates(fields(base), 'TREC 20-18', { ...TREC_20_18_TERMS, earnestMoneyDays: 2 }));
    expect(k.EarnestMoneyDue.dateValue).toBe('2025-07-22');
  });

  it.each([
    ['Third Party Financing Addendum'],
    ['Seller Financing Addendum'],
    ['Loan Assumption Addendum'],
  ])('names a checked %s (a separate form) instead of guessing FinancingDeadline', (title) => {
    const r = computeKeyDates(fields({ ...base, addenda: ['Addendum for Coastal Area Property', title] }), 'TREC 20-18');
    expect(byType(r).FinancingDeadline).toBeUndefined();
    expect(r.warnings).toEqual([`FinancingDeadline not set: the ${title} is a separate form; enter its financing approval deadline`]);
  });

  it('sets FinancingDeadline only from financingDeadlineDays', () => {
    const r = computeKeyDates(fields({ ...base, financingDeadlineDays: 22 }), 'TREC 20-18');
    const k = byType(r);
    expect(k.FinancingDeadline.dateValue).toBe('2025-08-11');
    expect(k.FinancingDeadline.calculationNotes).toBe('Effective Date 2025-07-20 + 22 days (Third Party Financing Addendum ¶2A)');
    expect(r.warnings).not.toContain('FinancingDeadline not set: no financing addendum gives one');
  });

  it('omits Option Fee due when no Option Fee is stated (¶5D) and warns about missing inputs', () => {
    const r = computeKeyDates(fields({ ...base, optionFee: null, optionPeriodDays: null, closingDate: null }), 'TREC 20-18');
    const types = r.keyDates.map((k) => k.keyDateType);
    expect(types).not.toContain('OptionFeeDue');
    expect(types).not.toContain('InspectionDeadline');
    expect(r.warnings).toEqual(
      expect.arrayContaining(['ClosingDate not set: closing date missing', 'InspectionDeadline not set: option period days missing']),
    );
  });

  it('computes nothing from a missing Effective Date', () => {
    const r = computeKeyDates(fields({ ...base, effectiveDate: null }), 'TREC 20-18');
    expect(r.keyDates.map((k) => k.keyDateType)).toEqual(['ClosingDate']);
    expect(r.warnings).toContain('Effective Date missing: deadlines counted from it are not computed');
  });
});

describe('computeKeyDates — generic', () => {
  it('uses the inspection period with no weekend rule', () => {
    const r = computeKeyDates(fields({ effectiveDate: '2025-07-23', closingDate: '2025-08-29', optionPeriodDays: 3 }), 'generic');
    const k = byType(r);
    expect(k.InspectionDeadline.dateValue).toBe('2025-07-26');
    expect(k.InspectionDeadline.calculationNotes).toBe(
      'Effective Date 2025-07-23 + 3 days (inspection period); falls on Saturday 2025-07-26 — not extended: no weekend or ' +
        "holiday rule applied to a generic contract; check its time-computation clause",
    );
    expect(k.ClosingDate.calculationNotes).toBe('Closing Date 2025-08-29 as written (contract)');
    expect(k.EarnestMoneyDue).toBeUndefined();
  });
});
