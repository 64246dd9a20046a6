/**
 * Document rules that are not I/O: the document-type vocabulary, classification of an upload from its
 * declared type or file name, the upload limits, and the purchase baseline behind
 * `GET /transactions/{transactionId}/missing-documents`.
 */

/** The classified document types (the spec leaves the vocabulary "not shown"; designed here). */
export const DOCUMENT_TYPES = [
  'purchase_contract',
  'earnest_money_receipt',
  'sellers_disclosure',
  'financing_addendum',
  'hoa_addendum',
  'survey',
  'title_commitment',
  'other',
] as const;

/** One of `DOCUMENT_TYPES`. */
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** Human labels of the document types. */
export const DOCUMENT_TYPE_LABELS: Record<DocumentType, string> = {
  purchase_contract: 'Executed purchase contract',
  earnest_money_receipt: 'Earnest money receipt',
  sellers_disclosure: "Seller's disclosure notice",
  financing_addendum: 'Third party financing addendum',
  hoa_addendum: 'HOA addendum',
  survey: 'Survey',
  title_commitment: 'Title commitment',
  other: 'Other',
};

/** Where a document's type came from: the caller (upload or PATCH), the extraction result, or the file name. */
export type DocumentTypeSource = 'declared' | 'extraction' | 'filename';

/** Largest file accepted, in bytes (25 MiB), for presigned uploads. */
export const MAX_DOCUMENT_BYTES = 25 * 1024 * 1024;

/** Largest `contentBase64` accepted inline by `POST /documents`, in characters (~3.75 MB decoded), below Lambda's 6 MB payload. */
export const MAX_INLINE_BASE64_CHARS = 5_000_000;

/** The only content type accepted: extraction reads PDFs. */
export const PDF_CONTENT_TYPE = 'application/pdf';

/** The bytes every PDF starts with (ISO 32000-1 §7.5.2 file header). */
const PDF_MAGIC = '%PDF-';

/** Number of leading bytes `pdfProblem` needs. */
export const PDF_MAGIC_LENGTH = PDF_MAGIC.length;

/** Why a file cannot be a stored document, as an extraction error code, or undefined when it can. */
export type FileProblem = 'empty_file' | 'file_too_large' | 'not_pdf';

/**
 * Checks a file by its size and first bytes.
 * @param size total size in bytes
 * @param head at least the first `PDF_MAGIC_LENGTH` bytes (fewer only when the file is shorter)
 * @param maxBytes the size limit (default `MAX_DOCUMENT_BYTES`)
 */
export function pdfProblem(size: number, head: Uint8Array, maxBytes = MAX_DOCUMENT_BYTES): FileProblem | undefined {
  if (size === 0) return 'empty_file';
  if (size > maxBytes) return 'file_too_large';
  if (Buffer.from(head.subarray(0, PDF_MAGIC_LENGTH)).toString('latin1') !== PDF_MAGIC) return 'not_pdf';
  return undefined;
}

/** A sentence for each file problem (job error message and 422 text). */
export const FILE_PROBLEM_MESSAGES: Record<FileProblem, string> = {
  empty_file: 'The file is empty (0 bytes).',
  file_too_large: `The file is larger than ${MAX_DOCUMENT_BYTES} bytes (25 MB).`,
  not_pdf: 'The file is not a PDF (it does not start with %PDF-).',
};

/**
 * Keyword rules, first match wins; applied to a lower-cased text whose `_`, `-`, `.` and runs of spaces
 * are single spaces. Specific addenda come before the contract, whose file name often mentions them.
 */
const KEYWORD_RULES: [DocumentType, RegExp][] = [
  ['hoa_addendum', /\bhoa\b|owners? association|property owners|\b36 1\d\b/],
  ['financing_addendum', /financing|\b40 1\d\b|third party|\bloan\b/],
  ['earnest_money_receipt', /earnest|\bem receipt\b|escrow receipt|receipt of (earnest|funds)/],
  ['sellers_disclosure', /disclosure|\bsdn\b|\bop h\b/],
  ['survey', /survey|\bt 47\b/],
  ['title_commitment', /title|commitment/],
  ['purchase_contract', /contract|purchase agreement|sales agreement|\b20 1[5-9]\b|\b30 1\d\b|one to four|resale/],
];

const normalize = (text: string) =>
  text
    .toLowerCase()
    .replace(/\.pdf$/, '')
    .replace(/[_\-.]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** The type a text names by keywords (e.g. `TREC 20-18 One to Four Family.pdf` → `purchase_contract`), or undefined. */
export function classifyText(text: string): DocumentType | undefined {
  const t = normalize(text);
  if ((DOCUMENT_TYPES as readonly string[]).includes(t.replace(/ /g, '_'))) return t.replace(/ /g, '_') as DocumentType;
  return KEYWORD_RULES.find(([, re]) => re.test(t))?.[0];
}

/**
 * Classifies an upload: a declared type wins when it is a vocabulary value or a phrase naming one (e.g.
 * "Earnest Money Receipt"); else the file name's keywords; else `other`.
 * @returns the type and its source (`declared` only when the declared text named a type)
 */
export function classifyDocument(declared: string | null | undefined, fileName: string): { documentType: DocumentType; source: DocumentTypeSource } {
  const byDeclared = declared ? classifyText(declared) : undefined;
  if (byDeclared) return { documentType: byDeclared, source: 'declared' };
  return { documentType: classifyText(fileName) ?? 'other', source: 'filename' };
}

/**
 * The type an extraction result implies, or undefined: every form the extractor recognizes (TREC 20-18 and
 * the other TREC contracts, Colorado CBS1) is a purchase contract; `generic` implies nothing.
 */
export const typeFromExtraction = (formType: string | null | undefined): DocumentType | undefined =>
  formType && formType !== 'generic' ? 'purchase_contract' : undefined;

/** What the latest applied extraction says about the deal (null fields: unknown). */
export interface AppliedContractFacts {
  financingType: string | null;
  hoa: boolean | null;
}

/** A baseline document with why it is required. */
export interface RequiredDocument {
  documentType: DocumentType;
  label: string;
  reason: string;
}

/**
 * The purchase baseline: the executed contract, earnest money receipt, seller's disclosure, title
 * commitment and survey always; the third party financing addendum when the applied contract is financed
 * (financing type known and not `cash`, TREC 20-18 ¶3B); the HOA addendum when it says the property is
 * subject to an owners' association (TREC 20-18 ¶6E(2), TREC 36-x).
 */
export function purchaseBaseline(facts: AppliedContractFacts | null): RequiredDocument[] {
  const always = 'required for every purchase';
  const list: RequiredDocument[] = [
    { documentType: 'purchase_contract', label: DOCUMENT_TYPE_LABELS.purchase_contract, reason: always },
    { documentType: 'earnest_money_receipt', label: DOCUMENT_TYPE_LABELS.earnest_money_receipt, reason: 'escrow receipts the earnest money (TREC 20-18 ¶5A)' },
    { documentType: 'sellers_disclosure', label: DOCUMENT_TYPE_LABELS.sellers_disclosure, reason: 'seller owes the disclosure notice (TREC 20-18 ¶7B)' },
  ];
  if (facts?.financingType && facts.financingType !== 'cash') {
    list.push({ documentType: 'financing_addendum', label: DOCUMENT_TYPE_LABELS.financing_addendum, reason: `the applied contract is financed (${facts.financingType})` });
  }
  if (facts?.hoa === true) {
    list.push({ documentType: 'hoa_addendum', label: DOCUMENT_TYPE_LABELS.hoa_addendum, reason: 'the applied contract says the property is subject to an HOA' });
  }
  list.push(
    { documentType: 'title_commitment', label: DOCUMENT_TYPE_LABELS.title_commitment, reason: 'title company delivers the commitment (TREC 20-18 ¶6B)' },
    { documentType: 'survey', label: DOCUMENT_TYPE_LABELS.survey, reason: 'existing or new survey (TREC 20-18 ¶6C)' },
  );
  return list;
}
