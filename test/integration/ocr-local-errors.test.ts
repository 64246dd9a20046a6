/**
 * Local OCR adapter, refusals: empty, not a PDF, too large, corrupt/truncated, too many pages (fast, before any
 * page is read), and encryption — a user-password PDF fails `encrypted_pdf`, an owner-password-only PDF is read.
 * The encrypted PDFs come from test/support/pdf-fixtures.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExtractionError } from '#domain/extraction/types';
import { MAX_PDF_BYTES } from '#ports/ocr';
import { mapOpenError } from '#ports/ocr/pdfjs';
import { inspectPdf, localOcr, terminateLocalOcr } from '#ports/ocr-local';
import { encryptedPdf, textPdf } from '../support/pdf-fixtures.ts';

async function rejection(p: Promise<unknown>): Promise<ExtractionError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ExtractionError);
    return e as ExtractionError;
  }
  throw new Error('expected a rejection');
}

let valid: Uint8Array;
beforeAll(async () => {
  valid = await textPdf(3);
});
afterAll(() => terminateLocalOcr());

describe('localOcr refusals', () => {
  it('empty file → empty_file', async () => {
    expect((await rejection(localOcr.analyze(new Uint8Array(0)))).code).toBe('empty_file');
  });

  it('not a PDF → not_pdf', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    expect((await rejection(localOcr.analyze(png))).code).toBe('not_pdf');
    expect((await rejection(localOcr.analyze(Buffer.from('hello, world')))).code).toBe('not_pdf');
    expect((await rejection(localOcr.analyze(Buffer.from('%PD')))).code).toBe('not_pdf');
  });

  it('more than 25 MiB → file_too_large (checked on the bytes, no parsing)', async () => {
    const big = new Uint8Array(MAX_PDF_BYTES + 1);
    big.set(Buffer.from('%PDF-1.7\n'));
    const e = await rejection(localOcr.analyze(big));
    expect(e.code).toBe('file_too_large');
    expect(e.message).toMatch(/25 MiB/);
  });

  it('garbage after the header, or a file truncated to its first bytes → corrupt_pdf', async () => {
    expect((await rejection(localOcr.analyze(Buffer.from('%PDF-1.7\nthis is not really a pdf\n')))).code).toBe('corrupt_pdf');
    expect((await rejection(localOcr.analyze(valid.subarray(0, 40)))).code).toBe('corrupt_pdf');
    const bytes = Uint8Array.from(valid);
    bytes.fill(0x20, 9); // keep the header, blank the rest
    expect((await rejection(localOcr.analyze(bytes))).code).toBe('corrupt_pdf');
  });

  it('a PDF truncated mid-file (download cut short) → corrupt_pdf', async () => {
    // pdf-lib writes the catalog and page tree last (object streams), so any cut loses them.
    for (const cut of [0.3, 0.6, 0.9]) {
      const part = valid.subarray(0, Math.floor(valid.byteLength * cut));
      expect((await rejection(localOcr.analyze(part))).code).toBe('corrupt_pdf');
    }
  });

  it('more pages than maxPages → too_many_pages, from the page count before any page is read', async () => {
    const seventy = await textPdf(70);
    const t0 = performance.now();
    const e = await rejection(localOcr.analyze(seventy));
    const ms = performance.now() - t0;
    expect(e.code).toBe('too_many_pages');
    expect(e.message).toMatch(/70 pages; the limit is 60/);
    expect(ms).toBeLessThan(1500);
    expect((await rejection(localOcr.analyze(valid, { maxPages: 2 }))).code).toBe('too_many_pages');
    expect((await localOcr.analyze(valid, { maxPages: 3 })).pageCount).toBe(3);
    expect((await rejection(inspectPdf(seventy))).code).toBe('too_many_pages');
    expect(await inspectPdf(valid)).toEqual({ pageCount: 3 });
  });

  it('rejects a nonsensical maxPages', async () => {
    await expect(localOcr.analyze(valid, { maxPages: 0 })).rejects.toThrow(RangeError);
  });
});

describe('localOcr and encryption', () => {
  it('the test helper writes valid encrypted PDFs (pdf.js opens the user-password one with its password)', async () => {
    const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const doc = await getDocument({ data: encryptedPdf('Secret Contract Text', 'user-pw', 'owner-pw'), password: 'user-pw', verbosity: 0 }).promise;
    const page = await doc.getPage(1);
    const text = (await page.getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join('');
    await doc.destroy();
    expect(text).toBe('Secret Contract Text');
  });

  it('a user password → encrypted_pdf with a clear message', async () => {
    const e = await rejection(localOcr.analyze(encryptedPdf('Secret Contract Text', 'user-pw', 'owner-pw')));
    expect(e.code).toBe('encrypted_pdf');
    expect(e.message).toMatch(/password-protected/);
    expect((await rejection(inspectPdf(encryptedPdf('x', 'u', 'o')))).code).toBe('encrypted_pdf');
  });

  it('an owner password only (no user password) → opens and extracts', async () => {
    const r = await localOcr.analyze(encryptedPdf('Owner Restricted Contract', '', 'owner-pw'));
    expect(r.pageCount).toBe(1);
    expect(r.methods).toEqual({ 1: 'pdf-text' });
    const line = r.blocks.find((b) => b.BlockType === 'LINE');
    expect(line?.Text).toBe('Owner Restricted Contract');
    expect(line?.Geometry?.BoundingBox?.Left).toBeCloseTo(72 / 612, 3);
  });

  it('maps pdf.js PasswordException codes (NEED_PASSWORD, INCORRECT_PASSWORD) and other load errors', () => {
    const pw = (code: number) => Object.assign(new Error('No password given'), { name: 'PasswordException', code });
    expect(mapOpenError(pw(1)).code).toBe('encrypted_pdf');
    expect(mapOpenError(pw(2)).code).toBe('encrypted_pdf');
    expect(mapOpenError(Object.assign(new Error('Invalid PDF structure.'), { name: 'InvalidPDFException' })).code).toBe('corrupt_pdf');
    expect(mapOpenError('boom').code).toBe('corrupt_pdf');
  });
});
