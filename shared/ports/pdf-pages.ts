/**
 * A PDF's page count from its bytes, with pdf-lib (parses the cross-reference and page tree, renders nothing):
 * the cheap check before paying Textract per page (functions/extraction-steps/start-ocr.ts). pdf.js, which the
 * local OCR uses, is not bundled into Lambda; pdf-lib already is (the communication-log report).
 */
import { PDFDocument } from 'pdf-lib';
import { ExtractionError } from '#domain/extraction/types';

/**
 * @param pdf the file's bytes (already checked for size and the `%PDF-` header at upload)
 * @returns the number of pages (≥ 1). An encrypted file is counted too (the page tree is not encrypted): whether
 *   it can be read is Textract's answer, as an owner-password-only PDF opens without a password.
 * @throws ExtractionError `corrupt_pdf` (unparseable, or no pages)
 */
export async function pdfPageCount(pdf: Uint8Array): Promise<number> {
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(pdf, { updateMetadata: false, ignoreEncryption: true });
  } catch (e) {
    throw new ExtractionError('corrupt_pdf', `The PDF could not be read: ${(e as Error)?.message ?? e}`);
  }
  const pages = doc.getPageCount();
  if (pages < 1) throw new ExtractionError('corrupt_pdf', 'The PDF has no pages.');
  return pages;
}
