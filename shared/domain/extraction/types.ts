/**
 * Contract-extraction types shared by the OCR adapters, the extractor, key-date math, the extraction jobs
 * and apply-to-deal. OCR output is Textract's own `Block` shape (LINE/WORD with `Page`, a normalized
 * `Geometry.BoundingBox` and `Confidence` 0–100; Textract also emits SELECTION_ELEMENT checkboxes), whether it
 * came from Textract, the PDF text layer or tesseract.js, so one extractor serves every source.
 */
import type { Block } from '@aws-sdk/client-textract';
import type { FormTerms } from '#domain/extraction/key-dates';

export type { Block };

/** How a page's blocks were produced. */
export type OcrMethod = 'textract' | 'pdf-text' | 'tesseract';

export interface OcrResult {
  pageCount: number;
  blocks: Block[];
  /** Method per page, 1-based page number → method. */
  methods: Record<number, OcrMethod>;
}

/** Stable error codes of a failed extraction job (also the OCR adapters' error codes). */
export type ExtractionErrorCode =
  | 'empty_file'
  | 'not_pdf'
  | 'corrupt_pdf'
  | 'encrypted_pdf'
  | 'too_many_pages'
  | 'file_too_large'
  | 'ocr_failed'
  | 'no_text'
  | 'internal_error';

/** Thrown by OCR and extraction steps for a document that cannot be processed; ends the job `failed`. */
export class ExtractionError extends Error {
  constructor(
    readonly code: ExtractionErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ExtractionError';
  }
}

/** Where a value was read: 1-based page, the text read, and the normalized box (0–1, Textract's). */
export interface Citation {
  page: number;
  text: string;
  boundingBox: { left: number; top: number; width: number; height: number };
}

export interface ExtractedField<T> {
  value: T | null;
  /** 0–1. */
  confidence: number;
  citations: Citation[];
  /** e.g. "low confidence", "conflicting values: 'Ann Lee' (p1) vs 'Anne Lee' (p9)", "required field missing". */
  warnings: string[];
}

export type FinancingType = 'cash' | 'third_party' | 'loan_assumption' | 'seller_financing';

/**
 * Fields read from a residential purchase contract. Money is in US dollars (numbers with cents); dates are
 * calendar dates `YYYY-MM-DD`; periods are whole days.
 */
export interface ContractFields {
  propertyStreet: ExtractedField<string>;
  propertyCity: ExtractedField<string>;
  propertyState: ExtractedField<string>;
  propertyZip: ExtractedField<string>;
  county: ExtractedField<string>;
  legalDescription: ExtractedField<string>;
  buyers: ExtractedField<string[]>;
  sellers: ExtractedField<string[]>;
  salesPriceCash: ExtractedField<number>;
  salesPriceFinanced: ExtractedField<number>;
  salesPriceTotal: ExtractedField<number>;
  financingType: ExtractedField<FinancingType>;
  earnestMoney: ExtractedField<number>;
  optionFee: ExtractedField<number>;
  optionPeriodDays: ExtractedField<number>;
  escrowAgent: ExtractedField<string>;
  effectiveDate: ExtractedField<string>;
  closingDate: ExtractedField<string>;
  surveyDays: ExtractedField<number>;
  titleObjectionDays: ExtractedField<number>;
  hoa: ExtractedField<boolean>;
  addenda: ExtractedField<string[]>;
  buyerAgent: ExtractedField<string>;
  buyerBrokerage: ExtractedField<string>;
  listingAgent: ExtractedField<string>;
  listingBrokerage: ExtractedField<string>;
  /** Only from a Third Party Financing Addendum that states it; never guessed. */
  financingDeadlineDays: ExtractedField<number>;
}

export type ContractFieldName = keyof ContractFields;

/** A key date computed from the fields (see shared/domain/extraction/key-dates.ts). */
export interface ComputedKeyDate {
  keyDateType: string;
  dateValue: string;
  label: string;
  /** e.g. "Effective Date 2025-07-20 + 5 days (TREC 20-18 ¶5B)". */
  calculationNotes: string;
  source: 'extraction';
}

export interface ExtractionResult {
  /**
   * The form recognized by its own text, as printed: `TREC 20-18` (or another TREC contract/edition, e.g.
   * `TREC 30-18`, `TREC 20-15`), `CBS1-8-24` (Colorado); `generic` otherwise.
   */
  formType: string;
  pageCount: number;
  fields: ContractFields;
  keyDates: ComputedKeyDate[];
  /** Document-level warnings (e.g. "FinancingDeadline not set: no financing addendum gives one"). */
  warnings: string[];
  /** Mean confidence of the fields found, 0–1. */
  confidence: number;
  /** True when a required field is missing, a field conflicts, or confidence is low. */
  requiresReview: boolean;
  /** The form's printed terms used for key dates (kept so applying with overrides recomputes them the same way). */
  terms?: FormTerms;
}
