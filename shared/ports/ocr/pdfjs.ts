/**
 * pdf.js (legacy Node build) for the local OCR adapter: opening a PDF with its errors mapped to extraction error
 * codes, and rendering a page to a PNG with @napi-rs/canvas. pdf.js runs its "fake worker" in this thread
 * (Node has no pdf.js worker); fonts, CMaps, ICC profiles and wasm decoders are read from the installed
 * `pdfjs-dist` package, never fetched.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { ExtractionError } from '#domain/extraction/types';
import type { OcrImage } from '#ports/ocr/tesseract';

export type { PDFDocumentProxy, PDFPageProxy };

type Pdfjs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

const require = createRequire(import.meta.url);
let pdfjsModule: Promise<Pdfjs> | undefined;

/** The pdf.js module, imported on first use (importing it polyfills DOMMatrix/Path2D from @napi-rs/canvas). */
export function pdfjs(): Promise<Pdfjs> {
  pdfjsModule ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjsModule;
}

function assetDir(name: string): string {
  return join(dirname(require.resolve('pdfjs-dist/package.json')), name) + '/';
}

/** Time limit for pdf.js to open a document (parse the trailer/xref, count pages), milliseconds. */
export const OPEN_TIMEOUT_MS = 30_000;

/** pdf.js's `PasswordResponses.NEED_PASSWORD` / `INCORRECT_PASSWORD`. */
const NEED_PASSWORD = 1;
const INCORRECT_PASSWORD = 2;

/**
 * Maps an error of `getDocument(...).promise` to an ExtractionError: `PasswordException` → `encrypted_pdf`
 * (a user password is needed; owner-password-only files open without one and never get here), anything else
 * (`InvalidPDFException`, unreadable structure) → `corrupt_pdf`.
 */
export function mapOpenError(e: unknown): ExtractionError {
  if (e instanceof ExtractionError) return e;
  const err = e as { name?: string; code?: number; message?: string } | undefined;
  if (err?.name === 'PasswordException' && (err.code === NEED_PASSWORD || err.code === INCORRECT_PASSWORD)) {
    return new ExtractionError(
      'encrypted_pdf',
      'The PDF is password-protected: it needs a password to open. Remove the password (or print it to a new PDF) and upload it again.',
    );
  }
  return new ExtractionError('corrupt_pdf', `The PDF could not be read${err?.message ? `: ${err.message}` : '.'}`);
}

/**
 * Opens a PDF. The bytes are copied (pdf.js transfers, i.e. detaches, the buffer it is given).
 * @returns the document; the caller must `destroy()` it
 * @throws ExtractionError `encrypted_pdf` | `corrupt_pdf`
 */
export async function openPdf(pdf: Uint8Array): Promise<PDFDocumentProxy> {
  const lib = await pdfjs();
  const task = lib.getDocument({
    data: new Uint8Array(pdf),
    standardFontDataUrl: assetDir('standard_fonts'),
    cMapUrl: assetDir('cmaps'),
    cMapPacked: true,
    iccUrl: assetDir('iccs'),
    wasmUrl: assetDir('wasm'),
    isEvalSupported: false,
    verbosity: lib.VerbosityLevel.ERRORS,
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    const fail = () => reject(new ExtractionError('corrupt_pdf', `The PDF could not be opened within ${OPEN_TIMEOUT_MS} ms.`));
    timer = setTimeout(fail, OPEN_TIMEOUT_MS);
  });
  try {
    const doc = await Promise.race([task.promise, timeout]);
    if (!(doc.numPages > 0)) {
      await doc.destroy().catch(() => {});
      throw new ExtractionError('corrupt_pdf', 'The PDF has no pages.');
    }
    return doc;
  } catch (e) {
    await task.destroy().catch(() => {});
    throw mapOpenError(e);
  } finally {
    clearTimeout(timer);
  }
}

/** Largest rendered side, pixels (a letter page at 200 dpi is 1700 × 2200). */
export const MAX_RENDER_SIDE = 5000;

/**
 * Renders a page as displayed (rotation applied) to a PNG at `dpi` (lowered so neither side exceeds
 * {@link MAX_RENDER_SIDE} px), on a white background.
 * @returns PNG bytes, pixel size and the effective dpi
 */
export async function renderPage(page: PDFPageProxy, dpi: number): Promise<OcrImage> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const base = page.getViewport({ scale: 1 });
  const scale = Math.min(dpi / 72, MAX_RENDER_SIDE / Math.max(base.width, base.height, 1));
  const viewport = page.getViewport({ scale });
  const width = Math.max(1, Math.ceil(viewport.width));
  const height = Math.max(1, Math.ceil(viewport.height));
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  // pdf.js is typed against DOM canvases; @napi-rs/canvas implements the subset it uses.
  await page.render({ canvas: canvas as never, canvasContext: context as never, viewport }).promise;
  const data = await canvas.encode('png');
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width, height, dpi: Math.round(scale * 72) };
}
