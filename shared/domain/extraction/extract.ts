/**
 * The contract extractor shared by every OCR source (Textract in AWS, the local text-layer/tesseract adapter):
 * OCR blocks in, an {@link ExtractionResult} proposal out. Pure: no I/O, no clock.
 */
import { ExtractionError, type ContractFields, type ExtractedField, type ExtractionResult, type OcrResult } from '#domain/extraction/types';
import { buildDocText } from '#domain/extraction/lines';
import { FIELD_NAMES, LOW_CONFIDENCE, flagRequired } from '#domain/extraction/fields';
import { extractTrec2018, isTrec2018 } from '#domain/extraction/trec-20-18';
import { extractGeneric } from '#domain/extraction/generic';
import { computeKeyDates } from '#domain/extraction/key-dates';

/**
 * Extracts a residential purchase contract.
 *
 * 1. Recognize: TREC 20-18 when the document names itself (form number and title, see `isTrec2018`),
 *    otherwise `generic`.
 * 2. Run that form's field rules; mark missing required fields ("required field missing").
 * 3. Compute key dates (key-dates.ts) with the form's own printed terms.
 * 4. `confidence` = mean confidence of the fields that have a value (0 when none);
 *    `requiresReview` = a required field is missing, any field warns of conflicting values, any found field
 *    is below 0.8.
 *
 * @throws ExtractionError `no_text` when the blocks hold no LINE or WORD text at all
 */
export function extractContract(ocr: OcrResult): ExtractionResult {
  const blocks = ocr.blocks ?? [];
  const hasText = blocks.some((b) => (b.BlockType === 'LINE' || b.BlockType === 'WORD') && (b.Text ?? '').trim());
  if (!hasText) throw new ExtractionError('no_text', 'No text was found in the document.');

  const doc = buildDocText(blocks, ocr.pageCount);
  const trec = isTrec2018(doc);
  const formType: ExtractionResult['formType'] = trec ? 'TREC 20-18' : 'generic';
  const { fields, terms, warnings } = trec ? extractTrec2018(blocks, doc) : extractGeneric(blocks, doc);

  const missingRequired = flagRequired(fields);
  const kd = computeKeyDates(fields, formType, terms);
  const allWarnings = [...warnings, ...kd.warnings];
  if (missingRequired.length) allWarnings.push(`required fields missing: ${missingRequired.join(', ')}`);

  const present = FIELD_NAMES.map((n) => fields[n] as ExtractedField<unknown>).filter((f) => f.value !== null);
  const confidence = present.length
    ? Math.round((present.reduce((s, f) => s + f.confidence, 0) / present.length) * 1000) / 1000
    : 0;
  const conflict = FIELD_NAMES.some((n) => (fields[n] as ExtractedField<unknown>).warnings.some((w) => w.startsWith('conflicting values')));
  const low = present.some((f) => f.confidence < LOW_CONFIDENCE);
  const requiresReview = missingRequired.length > 0 || conflict || low || warnings.some((w) => w.startsWith('conflicting values'));

  return {
    formType,
    pageCount: ocr.pageCount,
    fields: fields as ContractFields,
    keyDates: kd.keyDates,
    warnings: allWarnings,
    confidence,
    requiresReview,
  };
}
