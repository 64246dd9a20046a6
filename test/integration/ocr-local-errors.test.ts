/**
 * Local OCR adapter, refusals: empty, not a PDF, too large, corrupt/truncated, too many pages (fast, before any
 * page is read), and encryption — a user-password PDF fails `encrypted_pdf`, an owner-password-only PDF is read.
 *
 * No installed tool can encrypt a PDF (pdf-lib cannot; qpdf is absent), so `encryptedPdf` below writes a
 * one-page PDF encrypted with the Standard Security Handler, revision 2 (RC4, 40-bit key), per PDF 1.7
 * (ISO 32000-1) §7.6.3: Algorithm 2 (file key), 3 (O entry), 4 (U entry) and 1 (per-object key). RC4 is not in
 * OpenSSL 3's default provider, so it is implemented here (a few lines).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { ExtractionError } from '#domain/extraction/types';
import { MAX_PDF_BYTES } from '#ports/ocr';
import { mapOpenError } from '#ports/ocr/pdfjs';
import { inspectPdf, localOcr, terminateLocalOcr } from '#ports/ocr-local';

// ---- Standard Security Handler R2 (RC4-40) ------------------------------------------------------------------

const PAD = Buffer.from('28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A', 'hex');

function rc4(key: Uint8Array, data: Uint8Array): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i] + key[i % key.length]) & 255;
    [s[i], s[j]] = [s[j], s[i]];
  }
  const out = Buffer.alloc(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 255;
    j = (j + s[i]) & 255;
    [s[i], s[j]] = [s[j], s[i]];
    out[n] = data[n] ^ s[(s[i] + s[j]) & 255];
  }
  return out;
}

const md5 = (...parts: Uint8Array[]) => createHash('md5').update(Buffer.concat(parts)).digest();
const padded = (pw: string) => Buffer.concat([Buffer.from(pw, 'latin1'), PAD]).subarray(0, 32);

/** A one-page PDF showing `text`, encrypted RC4-40 (R2). `userPassword` '' = opens without a password. */
function encryptedPdf(text: string, userPassword: string, ownerPassword: string): Uint8Array {
  const id = randomBytes(16);
  const P = -64; // R2: printing, modifying, copying, annotating all denied (bits 3–6 clear)
  const pBytes = Buffer.alloc(4);
  pBytes.writeInt32LE(P);
  // Algorithm 3: O = RC4(MD5(pad(owner))[0..5], pad(user))
  const O = rc4(md5(padded(ownerPassword || userPassword)).subarray(0, 5), padded(userPassword));
  // Algorithm 2: file key = MD5(pad(user) ‖ O ‖ P ‖ ID[0])[0..5]
  const key = md5(padded(userPassword), O, pBytes, id).subarray(0, 5);
  // Algorithm 4: U = RC4(key, PAD)
  const U = rc4(key, PAD);
  // Algorithm 1: object key = MD5(key ‖ num (3 bytes LE) ‖ gen (2 bytes LE))[0..10]
  const objectKey = (num: number) => md5(key, Buffer.from([num & 255, (num >> 8) & 255, (num >> 16) & 255, 0, 0])).subarray(0, 10);

  const content = rc4(objectKey(5), Buffer.from(`BT /F1 14 Tf 72 700 Td (${text}) Tj ET`, 'latin1'));
  const objects: Buffer[] = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>'),
    Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>'),
    Buffer.concat([Buffer.from(`<< /Length ${content.length} >>\nstream\n`), content, Buffer.from('\nendstream')]),
    Buffer.from(`<< /Filter /Standard /V 1 /R 2 /O <${O.toString('hex')}> /U <${U.toString('hex')}> /P ${P} >>`),
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  let at = parts[0].length;
  objects.forEach((body, i) => {
    offsets.push(at);
    const obj = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    parts.push(obj);
    at += obj.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n`, '0000000000 65535 f \n', ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)].join('');
  const trailer = `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Encrypt 6 0 R /ID [<${id.toString('hex')}> <${id.toString('hex')}>] >>\nstartxref\n${at}\n%%EOF\n`;
  parts.push(Buffer.from(xref + trailer));
  return new Uint8Array(Buffer.concat(parts));
}

// ---- fixtures -------------------------------------------------------------------------------------------------

async function textPdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) doc.addPage([612, 792]).drawText(`Contract page ${i} of ${pages}`, { x: 72, y: 720, size: 12, font });
  return doc.save();
}

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
