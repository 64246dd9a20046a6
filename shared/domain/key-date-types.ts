/**
 * The controlled vocabulary of key-date types (spec "Key date": each has a type from a controlled vocabulary;
 * named there: `ClosingDate`, `InspectionDeadline`, `FinancingDeadline`; the full vocabulary is "not shown" and
 * is this service's). The others are the contract's Effective Date (TREC 20-18, the date of final acceptance that
 * its deadlines count from) and the deadlines of the contract forms the extraction reads (TREC 20-18 ¶5, ¶6, ¶9,
 * ¶23; the Third Party Financing Addendum; the HOA addendum TREC 36) and the contingencies
 * (shared/domain/contingencies.ts). Any other type is a custom key date: the writer says so with `isCustom: true`,
 * so a typo such as `Closing` is refused instead of becoming a new date (issue 25).
 */

/** Every built-in key-date type. */
export const KEY_DATE_TYPES = [
  'EffectiveDate',
  'ClosingDate',
  'InspectionDeadline',
  'FinancingDeadline',
  'AppraisalDeadline',
  'EarnestMoneyDue',
  'OptionFeeDue',
  'SurveyDeadline',
  'TitleObjectionDeadline',
  'HoaDocumentsDeadline',
] as const;

const known = new Set<string>(KEY_DATE_TYPES);

/** True when `type` is in the vocabulary (exact, case-sensitive: `closingdate` is not `ClosingDate`). */
export const isKnownKeyDateType = (type: string): boolean => known.has(type);

/**
 * Why a key date of `type` may not be written, or undefined when it may: a type outside the vocabulary needs
 * `isCustom: true`.
 */
export function keyDateTypeProblem(type: string, isCustom: boolean | null | undefined): string | undefined {
  if (isCustom === true || known.has(type)) return undefined;
  return `is not a key-date type (${KEY_DATE_TYPES.join(', ')}); send isCustom: true for a custom one`;
}
