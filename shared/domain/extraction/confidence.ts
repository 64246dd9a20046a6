/**
 * A field's confidence weighed from its evidence, the same way for every reader. A reader's own confidence
 * (fields.ts `found`) already holds the evidence of the reading itself: the source words' OCR confidence, how
 * the label matched (exact or by edit distance) and the geometry (on the label's row, above or below its blank,
 * read in a paragraph). This pass adds the evidence that only the whole result shows:
 *
 * - the plausibility checks (plausibility.ts) — a value that failed one is already gone; a Closing Date with no
 *   Effective Date to check it against was lowered there;
 * - agreement between places and sources: a field that warns of conflicting values is capped at
 *   {@link CONFLICT_CAP} (below 0.5: not confident), and a price whose cash and financed parts add up to it, or
 *   parties named alike in the body and at the signatures, keep their confidence;
 * - OCR: free text read by OCR from one place only is multiplied by {@link OCR_SINGLE_SOURCE_FACTOR} (a confident
 *   letter misread is only caught by a second place that agrees);
 * - the form: on a form the extractor does not recognize, no printed wording confirms where a value sits, so
 *   its confidence is multiplied by {@link UNRECOGNIZED_FACTOR} (and the result is always reviewed, extract.ts).
 *
 * The bands are calibrated by `npm run bench:extraction` (bench/extraction-calibration.ts): for each confidence
 * band the share of reported values that are right, on every set.
 */
import type { ContractFieldName, ContractFields, ExtractedField, OcrMethod } from '#domain/extraction/types';
import { FIELD_NAMES, LOW_CONFIDENCE, roundConfidence } from '#domain/extraction/fields';

/** Highest confidence (0–1) of a field whose places or sources disagree. */
export const CONFLICT_CAP = 0.45;

/** Confidence factor of any value read from a form the extractor does not recognize. */
export const UNRECOGNIZED_FACTOR = 0.9;

/**
 * Confidence factor of free text (names, companies, address parts, the legal description, addenda titles) read
 * by OCR from one place only: a letter misread at a high word confidence ("Asharove" for "Ashgrove", 91 %) cannot
 * be told from the right name without a second place that agrees, so such a value is not confident.
 */
export const OCR_SINGLE_SOURCE_FACTOR = 0.5;

/** Fields whose value is free text, where one misread letter makes it wrong. */
const FREE_TEXT: readonly ContractFieldName[] = [
  'propertyStreet',
  'propertyCity',
  'county',
  'legalDescription',
  'buyers',
  'sellers',
  'escrowAgent',
  'addenda',
  'buyerAgent',
  'buyerBrokerage',
  'listingAgent',
  'listingBrokerage',
];

/**
 * Weighs every found field's confidence (in place, see the module docs) and keeps the "low confidence" warning
 * in step with the result.
 * @param recognized true when the form was recognized (a TREC contract, CBS1), false for the generic reader
 * @param methods how each page was read (1-based page → method); pages not listed count as a text layer
 */
export function weighEvidence(fields: ContractFields, recognized: boolean, methods: Record<number, OcrMethod> = {}): void {
  for (const name of FIELD_NAMES) {
    const f = fields[name] as ExtractedField<unknown>;
    if (f.value === null) continue;
    let c = f.confidence;
    if (!recognized) c *= UNRECOGNIZED_FACTOR;
    const ocrRead = f.citations.some((x) => methods[x.page] !== undefined && methods[x.page] !== 'pdf-text');
    // Places are pages: a value over two lines of one page (a legal description) is one place, not two.
    const places = new Set(f.citations.map((x) => x.page)).size;
    if (FREE_TEXT.includes(name) && ocrRead && places < 2) c *= OCR_SINGLE_SOURCE_FACTOR;
    if (f.warnings.some((w) => w.startsWith('conflicting values'))) c = Math.min(c, CONFLICT_CAP);
    f.confidence = roundConfidence(c);
    const low = f.warnings.indexOf('low confidence');
    if (f.confidence < LOW_CONFIDENCE && low < 0) f.warnings.push('low confidence');
    if (f.confidence >= LOW_CONFIDENCE && low >= 0) f.warnings.splice(low, 1);
  }
}
