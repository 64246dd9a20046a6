/**
 * Measurements for `bench/extraction.ts`: one contract through the local OCR adapter and the extractor (timed,
 * compared field by field with its labels), the two same-run baselines (raw pdf.js text extraction of a PDF;
 * rendering + tesseract of one page, as the adapter does it), and per-field precision/recall across documents.
 */
import { createLocalOcr } from '#ports/ocr-local';
import { openPdf, renderPage } from '#ports/ocr/pdfjs';
import { recognizeImage } from '#ports/ocr/tesseract';
import { extractContract } from '#domain/extraction/extract';
import type { ContractFieldName, OcrMethod } from '#domain/extraction/types';
import { FIELD_NAMES } from '#domain/extraction/fields';
import { compareFields, type ExpectedValues, type FieldComparison } from '#domain/extraction/accuracy';

/** Rendering resolution of image-only pages, dpi: the adapter's default, set explicitly so the baseline matches. */
export const OCR_DPI = 200;

/** Per-page OCR timeout of the bench, ms: generous, since a shared 2-core machine can take minutes a page. */
export const BENCH_PAGE_TIMEOUT_MS = 600_000;

const ocr = createLocalOcr({ dpi: OCR_DPI, pageTimeoutMs: BENCH_PAGE_TIMEOUT_MS });

const seconds = (t0: number) => (performance.now() - t0) / 1000;

/** One contract read and extracted: wall-clock seconds, what the adapter did per page, and the field comparison. */
export interface ContractRun {
  /** `ocr.analyze` + `extractContract`, seconds (the fixture is already built and in memory). */
  seconds: number;
  analyzeSeconds: number;
  extractSeconds: number;
  pageCount: number;
  formType: string;
  /** Pages by reading method, e.g. `{ 'pdf-text': 11 }`. */
  methods: Partial<Record<OcrMethod, number>>;
  rows: FieldComparison[];
}

/** Reads `pdf` with the local adapter ({@link OCR_DPI}), extracts it and compares every field with `expected`. */
export async function runContract(pdf: Uint8Array, expected: ExpectedValues): Promise<ContractRun> {
  const t0 = performance.now();
  const result = await ocr.analyze(pdf);
  const analyzeSeconds = seconds(t0);
  const t1 = performance.now();
  const extracted = extractContract(result);
  const extractSeconds = seconds(t1);
  const methods: Partial<Record<OcrMethod, number>> = {};
  for (const m of Object.values(result.methods)) methods[m] = (methods[m] ?? 0) + 1;
  return {
    seconds: analyzeSeconds + extractSeconds,
    analyzeSeconds,
    extractSeconds,
    pageCount: result.pageCount,
    formType: extracted.formType,
    methods,
    rows: compareFields(expected, extracted.fields),
  };
}

/**
 * Text-layer baseline: open `pdf` with pdf.js and `getTextContent()` every page (no line building, no
 * extraction). Wall-clock seconds.
 */
export async function textContentSeconds(pdf: Uint8Array): Promise<number> {
  const t0 = performance.now();
  const doc = await openPdf(pdf);
  try {
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      await page.getTextContent();
      page.cleanup();
    }
  } finally {
    await doc.destroy().catch(() => {});
  }
  return seconds(t0);
}

/**
 * Image-only baseline: page `pageNumber` of `pdf` rendered at {@link OCR_DPI} and recognized by tesseract, the
 * adapter's per-page work without the adapter (opening the PDF is not timed). Wall-clock seconds.
 */
export async function ocrPageSeconds(pdf: Uint8Array, pageNumber = 1): Promise<number> {
  const doc = await openPdf(pdf);
  try {
    const page = await doc.getPage(pageNumber);
    const t0 = performance.now();
    await recognizeImage(await renderPage(page, OCR_DPI), BENCH_PAGE_TIMEOUT_MS);
    const s = seconds(t0);
    page.cleanup();
    return s;
  } finally {
    await doc.destroy().catch(() => {});
  }
}

/**
 * One field across documents: `precision` = exact non-null values / non-null values reported, `recall` = exact
 * non-null values / non-null values expected, `accuracy` = exact (null = null counts) / documents. Ratios 0–1,
 * NaN when the denominator is 0 (nothing reported / nothing expected).
 */
export interface FieldStats {
  field: ContractFieldName;
  documents: number;
  exact: number;
  reported: number;
  expected: number;
  correct: number;
  precision: number;
  recall: number;
  accuracy: number;
}

/** {@link FieldStats} of every field (in `FIELD_NAMES` order) over the comparisons of several documents. */
export function fieldStats(documents: FieldComparison[][]): FieldStats[] {
  return FIELD_NAMES.map((field) => {
    const rows = documents.map((d) => d.find((r) => r.field === field)!);
    const reported = rows.filter((r) => r.actual !== null);
    const expected = rows.filter((r) => r.expected !== null);
    const correct = rows.filter((r) => r.exact && r.expected !== null).length;
    const exact = rows.filter((r) => r.exact).length;
    return {
      field,
      documents: rows.length,
      exact,
      reported: reported.length,
      expected: expected.length,
      correct,
      precision: reported.length ? reported.filter((r) => r.exact).length / reported.length : NaN,
      recall: expected.length ? correct / expected.length : NaN,
      accuracy: rows.length ? exact / rows.length : NaN,
    };
  });
}
