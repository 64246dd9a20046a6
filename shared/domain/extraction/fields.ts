/**
 * Building `ExtractedField`s: confidence from the source tokens and the rule's certainty, citations, the
 * standard warnings, and the list of required fields shared by every form.
 */
import type { Citation, ContractFieldName, ContractFields, ExtractedField } from '#domain/extraction/types';
import { citationOf, type Span, type Token } from '#domain/extraction/lines';

/** Fields whose absence makes a result require review (a contract is not usable without them). */
export const REQUIRED_FIELDS: readonly ContractFieldName[] = [
  'propertyStreet',
  'propertyCity',
  'propertyZip',
  'buyers',
  'sellers',
  'salesPriceTotal',
  'effectiveDate',
  'closingDate',
];

/** Every field of {@link ContractFields}, in display order. */
export const FIELD_NAMES: readonly ContractFieldName[] = [
  'propertyStreet',
  'propertyCity',
  'propertyState',
  'propertyZip',
  'county',
  'legalDescription',
  'buyers',
  'sellers',
  'salesPriceCash',
  'salesPriceFinanced',
  'salesPriceTotal',
  'financingType',
  'earnestMoney',
  'optionFee',
  'optionPeriodDays',
  'escrowAgent',
  'effectiveDate',
  'closingDate',
  'surveyDays',
  'titleObjectionDays',
  'hoa',
  'addenda',
  'buyerAgent',
  'buyerBrokerage',
  'listingAgent',
  'listingBrokerage',
  'financingDeadlineDays',
];

/** Confidence (0–1) below which a field gets the "low confidence" warning and the result requires review. */
export const LOW_CONFIDENCE = 0.8;

/** The warning text for a missing required field. */
export const REQUIRED_MISSING = 'required field missing';

/** An empty field (value null, confidence 0, no citations). */
export const missing = <T>(warnings: string[] = []): ExtractedField<T> => ({
  value: null,
  confidence: 0,
  citations: [],
  warnings,
});

/** Rounds a confidence to 3 decimals and clamps it to 0–1. */
export const roundConfidence = (c: number): number => Math.round(Math.min(1, Math.max(0, c)) * 1000) / 1000;

/** OCR word confidence (0–100) below which a value is judged by its weakest word. */
export const WEAK_WORD = 90;

/**
 * OCR evidence of a value's words, 0–1: their mean confidence / 100, or, when a word is below {@link WEAK_WORD}, the
 * weakest word's (confidence / 100)^1.5 if lower — one misread word ("ll___" for "III", a check glyph read as
 * "YA") makes the whole value wrong, however sure the other words are. 0.5 without words.
 */
export function ocrEvidence(tokens: readonly Token[]): number {
  if (!tokens.length) return 0.5;
  const mean = tokens.reduce((n, t) => n + t.confidence, 0) / tokens.length / 100;
  const weakest = Math.min(...tokens.map((t) => t.confidence));
  return weakest < WEAK_WORD ? Math.min(mean, (weakest / 100) ** 1.5) : mean;
}

/**
 * A found field. Confidence = {@link ocrEvidence} of the source tokens × `certainty` (the rule's own certainty,
 * 0–1: label match, geometry, agreement), capped by `cap`; a "low confidence" warning is added below
 * {@link LOW_CONFIDENCE}.
 */
export function found<T>(
  value: T,
  sources: (Span | Token[])[],
  certainty = 1,
  opts: { cap?: number; warnings?: string[]; citations?: Citation[] } = {},
): ExtractedField<T> {
  const tokens = sources.flatMap((s) => (Array.isArray(s) ? s : s.tokens));
  const ocr = ocrEvidence(tokens);
  const confidence = roundConfidence(Math.min(opts.cap ?? 1, ocr * certainty));
  const citations =
    opts.citations ??
    sources
      .map((s) => (Array.isArray(s) ? s : s.tokens))
      .filter((ts) => ts.length > 0)
      .flatMap((ts) => splitByPage(ts).map((group) => citationOf(group)));
  const warnings = [...(opts.warnings ?? [])];
  if (confidence < LOW_CONFIDENCE && !warnings.includes('low confidence')) warnings.push('low confidence');
  return { value, confidence, citations, warnings };
}

const splitByPage = (tokens: Token[]): Token[][] => {
  const pages = new Map<number, Token[]>();
  for (const t of tokens) pages.set(t.page, [...(pages.get(t.page) ?? []), t]);
  return [...pages.values()];
};

/** Adds "required field missing" to each required field that has no value (in place) and returns their names. */
export function flagRequired(fields: ContractFields): ContractFieldName[] {
  const out: ContractFieldName[] = [];
  for (const name of REQUIRED_FIELDS) {
    const f = fields[name] as ExtractedField<unknown>;
    const empty = f.value === null || (Array.isArray(f.value) && f.value.length === 0);
    if (empty) {
      if (!f.warnings.includes(REQUIRED_MISSING)) f.warnings.push(REQUIRED_MISSING);
      out.push(name);
    }
  }
  return out;
}

/** A ContractFields with every field missing. */
export function emptyFields(): ContractFields {
  return Object.fromEntries(FIELD_NAMES.map((n) => [n, missing()])) as unknown as ContractFields;
}
