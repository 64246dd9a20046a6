/**
 * The contract extractor shared by every OCR source (Textract in AWS, the local text-layer/tesseract adapter):
 * OCR blocks in, an {@link ExtractionResult} proposal out. Pure: no I/O, no clock.
 */
import { ExtractionError, type ContractFields, type ExtractedField, type ExtractionResult, type OcrResult } from '#domain/extraction/types';
import { buildDocText } from '#domain/extraction/lines';
import { FIELD_NAMES, LOW_CONFIDENCE, flagRequired } from '#domain/extraction/fields';
import { recognizeForm } from '#domain/extraction/forms';
import { computeKeyDates } from '#domain/extraction/key-dates';
import { applyPlausibility } from '#domain/extraction/plausibility';
import { weighEvidence } from '#domain/extraction/confidence';

/**
 * Extracts a residential purchase contract.
 *
 * 1. Recognize the form by its own text (forms.ts: the TREC contracts, Colorado CBS1), otherwise `generic`
 *    (the layout-aware reader, merged with Textract query answers when the blocks carry them).
 * 2. Run that form's field rules, then the plausibility rules every reader shares (plausibility.ts: party and
 *    agent names, written years, the closing window, earnest money vs Option Fee); mark missing required fields
 *    ("required field missing").
 * 3. Compute key dates (key-dates.ts) with the form's own printed terms.
 * 4. Weigh each field's confidence from its evidence (confidence.ts).
 * 5. `confidence` = mean confidence of the fields that have a value (0 when none);
 *    `requiresReview` = the form is not recognized (`generic`), a required field is missing, any field warns of
 *    conflicting values, any found field is below 0.8.
 *
 * @throws ExtractionError `no_text` when the blocks hold no LINE or WORD text at all
 */
export function extractContract(ocr: OcrResult): ExtractionResult {
  const blocks = ocr.blocks ?? [];
  const hasText = blocks.some((b) => (b.BlockType === 'LINE' || b.BlockType === 'WORD') && (b.Text ?? '').trim());
  if (!hasText) throw new ExtractionError('no_text', 'No text was found in the document.');

  const doc = buildDocText(blocks, ocr.pageCount);
  const form = recognizeForm(doc);
  const { fields, terms, warnings } = form.extract(blocks, doc);
  warnings.unshift(...form.warnings);
  applyPlausibility(fields);
  weighEvidence(fields, form.formType !== 'generic', ocr.methods ?? {});

  const missingRequired = flagRequired(fields);
  const kd = computeKeyDates(fields, form.formType, terms);
  const allWarnings = [...warnings, ...kd.warnings];
  if (missingRequired.length) allWarnings.push(`required fields missing: ${missingRequired.join(', ')}`);

  const present = FIELD_NAMES.map((n) => fields[n] as ExtractedField<unknown>).filter((f) => f.value !== null);
  const confidence = present.length
    ? Math.round((present.reduce((s, f) => s + f.confidence, 0) / present.length) * 1000) / 1000
    : 0;
  const conflict = FIELD_NAMES.some((n) => (fields[n] as ExtractedField<unknown>).warnings.some((w) => w.startsWith('conflicting values')));
  const low = present.some((f) => f.confidence < LOW_CONFIDENCE);
  const requiresReview = form.formType === 'generic' || missingRequired.length > 0 || conflict || low || warnings.some((w) => w.startsWith('conflicting values'));

  return {
    formType: form.formType,
    pageCount: ocr.pageCount,
    fields: fields as ContractFields,
    keyDates: kd.keyDates,
    warnings: allWarnings,
    confidence,
    requiresReview,
    ...(Object.keys(terms).length ? { terms } : {}),
  };
}
