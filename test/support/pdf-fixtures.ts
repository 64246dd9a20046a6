/**
 * PDFs built in code for tests: plain text pages (pdf-lib), and encrypted ones.
 *
 * No installed tool can encrypt a PDF (pdf-lib cannot; qpdf is absent), so `encryptedPdf` writes a one-page PDF
 * encrypted with the Standard Security Handler, revision 2 (RC4, 40-bit key), per PDF 1.7 (ISO 32000-1) §7.6.3:
 * Algorithm 2 (file key), 3 (O entry), 4 (U entry) and 1 (per-object key). RC4 is not in OpenSSL 3's default
 * provider, so it is implemented here (a few lines).
 */
import { createHash, randomBytes } from 'node:crypto';
import { PDFDocument, StandardFonts } from 'pdf-lib';

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
export function encryptedPdf(text: string, userPassword: string, ownerPassword: string): Uint8Array {
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

/** A PDF of `pages` Letter pages, each with one line of text ("Contract page i of n"). */
export async function textPdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) doc.addPage([612, 792]).drawText(`Contract page ${i} of ${pages}`, { x: 72, y: 720, size: 12, font });
  return doc.save();
}
