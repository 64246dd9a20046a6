/**
 * A PDF's page count from its bytes: the cheap check before paying Textract per page
 * (functions/extraction-steps/start-ocr.ts). It uses pdf-lib's parser and object model only (cross-reference table
 * or stream, object streams, the page tree), imported from their own modules: pdf-lib's entry point and its
 * `PDFDocument` bring the standard fonts' metrics, the PNG decoder and the whole drawing API (~145 KB more in the
 * step's bundle) for nothing a count needs. pdf-lib is pinned (1.17.1, its last release), so these module paths
 * hold; this is what `PDFDocument.load(…, { ignoreEncryption: true }).getPageCount()` does, minus the document
 * wrapper. pdf.js, which the local OCR uses, is not bundled into Lambda.
 */
import PDFParser from 'pdf-lib/es/core/parser/PDFParser.js';
import PDFCatalog from 'pdf-lib/es/core/structures/PDFCatalog.js';
import PDFPageLeaf from 'pdf-lib/es/core/structures/PDFPageLeaf.js';
import { ExtractionError } from '#domain/extraction/types';

/**
 * @param pdf the file's bytes (already checked for size and the `%PDF-` header at upload)
 * @returns the number of page leaves of the page tree (≥ 1), not its declared `/Count`, which a file may misstate.
 *   An encrypted file is counted too (the page tree is not encrypted): whether it can be read is Textract's
 *   answer, as an owner-password-only PDF opens without a password.
 * @throws ExtractionError `corrupt_pdf` (unparseable, no catalog or page tree, or no pages)
 */
export async function pdfPageCount(pdf: Uint8Array): Promise<number> {
  let pages = 0;
  try {
    const context = await PDFParser.forBytesWithOptions(pdf, Infinity, false, false).parseDocument();
    const catalog = context.lookup(context.trailerInfo.Root);
    if (!(catalog instanceof PDFCatalog)) throw new Error('no document catalog');
    catalog.Pages().traverse((node) => {
      if (node instanceof PDFPageLeaf) pages++;
    });
  } catch (e) {
    throw new ExtractionError('corrupt_pdf', `The PDF could not be read: ${(e as Error)?.message ?? e}`);
  }
  if (pages < 1) throw new ExtractionError('corrupt_pdf', 'The PDF has no pages.');
  return pages;
}
