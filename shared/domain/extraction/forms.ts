/**
 * The forms the extractor recognizes by their own text, in the order they are tried, and the generic reader
 * for everything else. Each entry gives the result's `formType` and runs that form's rules.
 */
import type { Block, ContractFields } from '#domain/extraction/types';
import type { DocText } from '#domain/extraction/lines';
import type { FormTerms } from '#domain/extraction/key-dates';
import { recognizeTrec } from '#domain/extraction/trec-forms';
import { extractTrec2018 } from '#domain/extraction/trec-20-18';
import { extractCbs1, recognizeCbs1 } from '#domain/extraction/cbs1';
import { extractGenericWithQueries } from '#domain/extraction/queries';

/** What a form's rules return. */
export interface FormExtraction {
  fields: ContractFields;
  terms: FormTerms;
  warnings: string[];
}

/** A document's form: its `formType`, recognition warnings, and its rules. */
export interface RecognizedForm {
  formType: string;
  /** e.g. "TREC 20-19 is not an edition this extractor knows …; read as a generic contract". */
  warnings: string[];
  extract(blocks: Block[], doc: DocText): FormExtraction;
}

/**
 * Recognizes the document's form: a TREC contract (trec-forms.ts), then Colorado's CBS1 (cbs1.ts); otherwise
 * `generic`, read by the layout-aware reader merged with Textract query answers when present (queries.ts).
 */
export function recognizeForm(doc: DocText): RecognizedForm {
  const trec = recognizeTrec(doc);
  if (trec.form) {
    const form = trec.form;
    return { formType: form.formType, warnings: [], extract: (blocks, d) => extractTrec2018(blocks, d, form) };
  }
  const cbs1 = recognizeCbs1(doc);
  if (cbs1) return { formType: cbs1, warnings: [], extract: (blocks, d) => extractCbs1(blocks, d, cbs1) };
  return { formType: 'generic', warnings: trec.warning ? [trec.warning] : [], extract: extractGenericWithQueries };
}
