/**
 * Local OCR adapter, image-only path: a page whose only content is a PNG (text drawn on a @napi-rs/canvas) has
 * no text layer, so it is rendered at 200 dpi and read by tesseract.js (offline, one reused worker).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCanvas } from '@napi-rs/canvas';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { ExtractionError, type Block } from '#domain/extraction/types';
import { localOcr, terminateLocalOcr } from '#ports/ocr-local';
import { recognizeImage, tesseractPoolSize, tesseractWorkersStarted } from '#ports/ocr/tesseract';

// A letter page scanned at 150 dpi.
const PX_W = 1275;
const PX_H = 1650;

async function scan(lines: { text: string; x: number; y: number; px: number }[]): Promise<Buffer> {
  const canvas = createCanvas(PX_W, PX_H);
  const g = canvas.getContext('2d');
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, PX_W, PX_H);
  g.fillStyle = '#000000';
  for (const l of lines) {
    g.font = `${l.px}px sans-serif`;
    g.fillText(l.text, l.x, l.y);
  }
  return canvas.encode('png');
}

const words = (blocks: Block[], page?: number) => blocks.filter((b) => b.BlockType === 'WORD' && (page === undefined || b.Page === page));

let mixed: Uint8Array;

beforeAll(async () => {
  const png = await scan([
    { text: 'RESIDENTIAL PURCHASE CONTRACT', x: 150, y: 200, px: 40 },
    { text: 'Buyer agrees to pay the sum of $425,000.', x: 150, y: 320, px: 30 },
    { text: 'Closing date: August 15, 2025', x: 150, y: 400, px: 30 },
  ]);
  const doc = await PDFDocument.create();
  const img = await doc.embedPng(png);
  doc.addPage([612, 792]).drawImage(img, { x: 0, y: 0, width: 612, height: 792 });
  const font = await doc.embedFont(StandardFonts.Helvetica);
  // Page 2: a scan with a 3-character text layer (a Bates stamp) still counts as image-only.
  const p2 = doc.addPage([612, 792]);
  p2.drawImage(img, { x: 0, y: 0, width: 612, height: 792 });
  p2.drawText('A-1', { x: 560, y: 20, size: 8, font });
  // Page 3: real text layer.
  doc.addPage([612, 792]).drawText('Addendum for Seller Financing', { x: 72, y: 720, size: 12, font });
  mixed = await doc.save();
}, 60_000);

afterAll(() => terminateLocalOcr());

describe('localOcr image-only pages', () => {
  it('reads a scanned page with tesseract: words, confidences > 60, boxes where drawn', async () => {
    const t0 = performance.now();
    const r = await localOcr.analyze(mixed);
    const seconds = (performance.now() - t0) / 1000;
    expect(r.pageCount).toBe(3);
    expect(r.methods).toEqual({ 1: 'tesseract', 2: 'tesseract', 3: 'pdf-text' });

    const p1 = words(r.blocks, 1);
    const text = p1.map((w) => w.Text);
    for (const expected of ['RESIDENTIAL', 'PURCHASE', 'CONTRACT', 'Buyer', '$425,000.', 'August', '2025']) expect(text).toContain(expected);
    for (const w of p1) {
      expect(w.Confidence).toBeGreaterThan(60);
      expect(w.Confidence).toBeLessThanOrEqual(100);
      expect(w.TextType).toBe('PRINTED');
    }

    const residential = p1.find((w) => w.Text === 'RESIDENTIAL')!.Geometry!.BoundingBox!;
    expect(residential.Left).toBeCloseTo(150 / PX_W, 2); // 0.118
    // Cap height of 40px text with its baseline at y=200px: top ≈ (200 - 29)/1650, bottom ≈ 200/1650.
    expect(residential.Top).toBeGreaterThan((200 - 40) / PX_H);
    expect(residential.Top).toBeLessThan((200 - 20) / PX_H);
    expect(residential.Top! + residential.Height!).toBeCloseTo(200 / PX_H, 2);

    const lines = r.blocks.filter((b) => b.BlockType === 'LINE' && b.Page === 1);
    expect(lines.map((l) => l.Text)).toEqual([
      'RESIDENTIAL PURCHASE CONTRACT',
      'Buyer agrees to pay the sum of $425,000.',
      'Closing date: August 15, 2025',
    ]);
    const page = r.blocks.find((b) => b.BlockType === 'PAGE' && b.Page === 1)!;
    expect(page.Relationships?.[0].Ids).toEqual(lines.map((l) => l.Id));
    for (const l of lines) {
      const ids = l.Relationships?.[0].Ids ?? [];
      expect(ids.map((id) => r.blocks.find((b) => b.Id === id)!.Text).join(' ')).toBe(l.Text);
    }

    expect(words(r.blocks, 2).map((w) => w.Text)).toContain('PURCHASE');
    expect(r.blocks.find((b) => b.BlockType === 'LINE' && b.Page === 3)?.Text).toBe('Addendum for Seller Financing');
    console.info(`[ocr] 2 image pages + 1 text page: ${seconds.toFixed(2)} s (first call includes worker start)`);
  });

  it('reuses the worker, and starts a new one after terminateLocalOcr', async () => {
    const t0 = performance.now();
    const again = await localOcr.analyze(mixed);
    const warm = (performance.now() - t0) / 1000;
    expect(again.methods[1]).toBe('tesseract');
    await terminateLocalOcr();
    await terminateLocalOcr(); // idempotent
    const after = await localOcr.analyze(mixed);
    expect(words(after.blocks, 1).map((w) => w.Text)).toContain('CONTRACT');
    console.info(`[ocr] warm: ${(warm / 2).toFixed(2)} s per image-only page at 200 dpi`);
  });

  it('reads the image pages of a document in parallel, one worker per page up to the pool size', async () => {
    await terminateLocalOcr();
    const before = process.env.TESSERACT_WORKERS;
    process.env.TESSERACT_WORKERS = '2';
    try {
      expect(tesseractPoolSize()).toBe(2);
      const r = await localOcr.analyze(mixed);
      // Two image pages at once: both pool workers were needed.
      expect(tesseractWorkersStarted()).toBe(2);
      expect(words(r.blocks, 2).map((w) => w.Text)).toContain('PURCHASE');
      const [a, b] = await Promise.all([localOcr.analyze(mixed), localOcr.analyze(mixed)]);
      expect(words(a.blocks, 1).map((w) => w.Text)).toEqual(words(b.blocks, 1).map((w) => w.Text));
      expect(tesseractWorkersStarted()).toBe(2);
    } finally {
      if (before === undefined) delete process.env.TESSERACT_WORKERS;
      else process.env.TESSERACT_WORKERS = before;
    }
  });

  it('tesseract failures settle as ocr_failed, and the worker keeps serving', async () => {
    const garbage = { data: new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]), width: 10, height: 10, dpi: 200 };
    const e = await recognizeImage(garbage).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(ExtractionError);
    expect((e as ExtractionError).code).toBe('ocr_failed');
    const r = await localOcr.analyze(mixed);
    expect(words(r.blocks, 1).map((w) => w.Text)).toContain('PURCHASE');
  });

  it('a recognition over its time limit fails ocr_failed (worker replaced), the next one succeeds', async () => {
    const png = await scan([{ text: 'TIMEOUT CHECK', x: 150, y: 200, px: 40 }]);
    const image = { data: new Uint8Array(png), width: PX_W, height: PX_H, dpi: 150 };
    const e = await recognizeImage(image, 1).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(ExtractionError);
    expect((e as ExtractionError).message).toMatch(/timed out/);
    const lines = await recognizeImage(image);
    expect(lines.map((l) => l.words.map((w) => w.text).join(' '))).toEqual(['TIMEOUT CHECK']);
  });
});
