/**
 * The local OCR adapter (local runtime, tests, benchmarks): pdf.js text layer for pages that have one, tesseract.js
 * on a 200 dpi rendering for image-only pages, both emitting Textract-shaped blocks (see `#ports/ocr`).
 *
 * Per page: `getTextContent()` → lines/words (`#ports/ocr/text-layer`, confidence 99, method `pdf-text`), less the
 * words struck through by a drawn line or a StrikeOut annotation (`#ports/ocr/strikes`). A page
 * whose text layer has fewer than `minTextChars` (default 5) non-whitespace characters is treated as a scan:
 * rendered with pdf.js + @napi-rs/canvas and read by tesseract.js (`#ports/ocr/tesseract`, tesseract's own
 * confidences, method `tesseract`). Pages are read in parallel, as many at a time as the tesseract pool has workers
 * (one per core by default, `#ports/ocr/tesseract` `tesseractPoolSize`): while one page is recognized the next
 * is rendered. Call {@link terminateLocalOcr} when done (tests, benchmarks, shutdown) — idle workers do not keep
 * the process alive.
 *
 * Validation order: bytes (`empty_file`, `not_pdf`, `file_too_large`), then open (`corrupt_pdf`,
 * `encrypted_pdf` — a PDF with only an owner password opens and is read normally), then the page count
 * (`too_many_pages`, before any page is read), then pages (`corrupt_pdf` if pdf.js cannot read one, `ocr_failed`
 * if tesseract fails or times out).
 */
import { ExtractionError, type OcrMethod, type OcrResult } from '#domain/extraction/types';
import {
  assertPageCount,
  assertPdfBytes,
  buildPageBlocks,
  maxPagesOf,
  MAX_PDF_BYTES,
  type Block,
  type LineSpec,
  type OcrAdapter,
  type OcrAnalyzeOptions,
} from '#ports/ocr';
import { openPdf, renderPage, type PDFDocumentProxy, type PDFPageProxy } from '#ports/ocr/pdfjs';
import { DEFAULT_RECOGNIZE_TIMEOUT_MS, recognizeImage, terminateTesseract, tesseractPoolSize } from '#ports/ocr/tesseract';
import { textLayerLines, type TextLayerStyle } from '#ports/ocr/text-layer';
import { dropStruckWords, strikeMarks } from '#ports/ocr/strikes';

/** Settings of a local adapter. */
export interface LocalOcrOptions {
  /** Rendering resolution for image-only pages, dots per inch. Default 200. */
  dpi?: number;
  /** A page with fewer non-whitespace text-layer characters than this is OCR'd. Default 5. */
  minTextChars?: number;
  /** Time limit of tesseract on one page, milliseconds. Default 120 000. */
  pageTimeoutMs?: number;
  /** Largest accepted file, bytes. Default {@link MAX_PDF_BYTES} (25 MiB). */
  maxBytes?: number;
}

/** Facts about a PDF that passed validation. */
export interface PdfInfo {
  pageCount: number;
}

/**
 * Validates a PDF without reading its pages: the same checks, in the same order, as `analyze` up to the page
 * count (useful before paying for Textract).
 * @throws ExtractionError `empty_file` | `not_pdf` | `file_too_large` | `corrupt_pdf` | `encrypted_pdf` | `too_many_pages`
 */
export async function inspectPdf(pdf: Uint8Array, opts?: OcrAnalyzeOptions & { maxBytes?: number }): Promise<PdfInfo> {
  assertPdfBytes(pdf, opts?.maxBytes ?? MAX_PDF_BYTES);
  const maxPages = maxPagesOf(opts);
  const doc = await openPdf(pdf);
  try {
    assertPageCount(doc.numPages, maxPages);
    return { pageCount: doc.numPages };
  } finally {
    await doc.destroy().catch(() => {});
  }
}

/** A local adapter with the given settings (the worker is shared by all instances). */
export function createLocalOcr(options: LocalOcrOptions = {}): OcrAdapter {
  const dpi = options.dpi ?? 200;
  const minTextChars = options.minTextChars ?? 5;
  const pageTimeoutMs = options.pageTimeoutMs ?? DEFAULT_RECOGNIZE_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? MAX_PDF_BYTES;

  async function readPage(doc: PDFDocumentProxy, pageNumber: number): Promise<{ blocks: Block[]; method: OcrMethod }> {
    let page: PDFPageProxy;
    let lines: LineSpec[];
    try {
      page = await doc.getPage(pageNumber);
    } catch (e) {
      throw new ExtractionError('corrupt_pdf', `Page ${pageNumber} could not be read: ${(e as Error)?.message ?? e}`);
    }
    try {
      try {
        const content = await page.getTextContent();
        const viewport = page.getViewport({ scale: 1 });
        lines = textLayerLines(content.items, content.styles as Record<string, TextLayerStyle>, viewport);
      } catch (e) {
        throw new ExtractionError('corrupt_pdf', `The text of page ${pageNumber} could not be read: ${(e as Error)?.message ?? e}`);
      }
      const chars = lines.reduce((n, l) => n + l.words.reduce((m, w) => m + w.text.replace(/\s/g, '').length, 0), 0);
      if (chars >= minTextChars) {
        // Struck-through words (a counter-offer's old value) are not text of the contract. Best effort: a page
        // whose drawing cannot be read keeps all its words.
        const marks = await strikeMarks(page).catch(() => []);
        return { blocks: buildPageBlocks(pageNumber, dropStruckWords(lines, marks)), method: 'pdf-text' };
      }

      let image;
      try {
        image = await renderPage(page, dpi);
      } catch (e) {
        throw new ExtractionError('ocr_failed', `Page ${pageNumber} could not be rendered for OCR: ${(e as Error)?.message ?? e}`);
      }
      const ocrLines = await recognizeImage(image, pageTimeoutMs);
      return { blocks: buildPageBlocks(pageNumber, ocrLines), method: 'tesseract' };
    } finally {
      page.cleanup();
    }
  }

  return {
    async analyze(pdf: Uint8Array, opts?: OcrAnalyzeOptions): Promise<OcrResult> {
      assertPdfBytes(pdf, maxBytes);
      const maxPages = maxPagesOf(opts);
      const doc = await openPdf(pdf);
      try {
        assertPageCount(doc.numPages, maxPages);
        const pages = await mapLimit(doc.numPages, tesseractPoolSize(), (n) => readPage(doc, n));
        const blocks: Block[] = [];
        const methods: Record<number, OcrMethod> = {};
        pages.forEach((page, i) => {
          for (const b of page.blocks) blocks.push(b);
          methods[i + 1] = page.method;
        });
        return { pageCount: doc.numPages, blocks, methods };
      } finally {
        await doc.destroy().catch(() => {});
      }
    },
  };
}

/**
 * Runs `fn` for 1…`count`, at most `limit` at a time, and returns the results in order. The first rejection
 * rejects the whole (pages still running finish on their own).
 */
async function mapLimit<T>(count: number, limit: number, fn: (n: number) => Promise<T>): Promise<T[]> {
  const out = new Array<T>(count);
  let next = 1;
  const lane = async () => {
    while (next <= count) {
      const n = next++;
      out[n - 1] = await fn(n);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, count)) }, lane));
  return out;
}

/** The local adapter with default settings (200 dpi, 5-character text threshold, 120 s per OCR'd page). */
export const localOcr: OcrAdapter = createLocalOcr();

/** Ends the shared tesseract worker, if one was started. Safe to call repeatedly. */
export function terminateLocalOcr(): Promise<void> {
  return terminateTesseract();
}
