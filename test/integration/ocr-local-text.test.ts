/**
 * Local OCR adapter, text-layer path: PDFs drawn with pdf-lib at known positions come back as Textract-shaped
 * PAGE/LINE/WORD blocks with normalized, top-left-origin boxes where the text was drawn.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { degrees, PDFDocument, StandardFonts, type PDFFont } from 'pdf-lib';
import type { Block } from '#domain/extraction/types';
import { localOcr, terminateLocalOcr } from '#ports/ocr-local';

const W = 612;
const H = 792;
const SIZE = 12;

function byType(blocks: Block[], type: string, page?: number): Block[] {
  return blocks.filter((b) => b.BlockType === type && (page === undefined || b.Page === page));
}

function children(blocks: Block[], parent: Block): Block[] {
  const ids = parent.Relationships?.find((r) => r.Type === 'CHILD')?.Ids ?? [];
  const byId = new Map(blocks.map((b) => [b.Id, b]));
  return ids.map((id) => byId.get(id)!);
}

function line(blocks: Block[], text: string): Block {
  const found = byType(blocks, 'LINE').find((b) => b.Text === text);
  if (!found) throw new Error(`no LINE "${text}" in ${JSON.stringify(byType(blocks, 'LINE').map((b) => b.Text))}`);
  return found;
}

let font: PDFFont;
let twoPage: Uint8Array;

beforeAll(async () => {
  const doc = await PDFDocument.create();
  font = await doc.embedFont(StandardFonts.Helvetica);
  const p1 = doc.addPage([W, H]);
  p1.drawText('RESIDENTIAL CONTRACT OF SALE', { x: 72, y: 720, size: SIZE, font });
  p1.drawText('Buyer:', { x: 72, y: 690, size: SIZE, font });
  p1.drawText('Ann Lee', { x: 112, y: 690, size: SIZE, font }); // same baseline, close → same LINE
  p1.drawText('Seller: Bob Roe', { x: 360, y: 690, size: SIZE, font }); // far to the right → its own LINE
  p1.drawText('Sales Price: $425,000.00', { x: 72, y: 660, size: SIZE, font });
  const p2 = doc.addPage([W, H]);
  p2.drawText('Closing Date: August 15, 2025', { x: 300, y: 100, size: 10, font });
  p2.drawText('Page 2 of 2', { x: 500, y: 40, size: 8, font });
  twoPage = await doc.save();
});

afterAll(() => terminateLocalOcr());

describe('localOcr text layer', () => {
  it('reads a 2-page text PDF as PAGE/LINE/WORD blocks with pdf-text methods', async () => {
    const r = await localOcr.analyze(twoPage);
    expect(r.pageCount).toBe(2);
    expect(r.methods).toEqual({ 1: 'pdf-text', 2: 'pdf-text' });
    expect(byType(r.blocks, 'PAGE').map((b) => b.Page)).toEqual([1, 2]);
    expect(byType(r.blocks, 'LINE', 1).map((b) => b.Text)).toEqual([
      'RESIDENTIAL CONTRACT OF SALE',
      'Buyer: Ann Lee',
      'Seller: Bob Roe',
      'Sales Price: $425,000.00',
    ]);
    expect(byType(r.blocks, 'LINE', 2).map((b) => b.Text)).toEqual(['Closing Date: August 15, 2025', 'Page 2 of 2']);
    for (const b of r.blocks) {
      expect(b.Id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      const bb = b.Geometry!.BoundingBox!;
      for (const v of [bb.Left!, bb.Top!, bb.Width!, bb.Height!]) expect(v).toBeGreaterThanOrEqual(0);
      expect(bb.Left! + bb.Width!).toBeLessThanOrEqual(1);
      expect(bb.Top! + bb.Height!).toBeLessThanOrEqual(1);
      expect(b.Geometry!.Polygon).toHaveLength(4);
      if (b.BlockType !== 'PAGE') expect(b.Confidence).toBe(99);
      if (b.BlockType === 'WORD') expect(b.TextType).toBe('PRINTED');
    }
    expect(new Set(r.blocks.map((b) => b.Id)).size).toBe(r.blocks.length);
  });

  it('puts boxes where the text was drawn (normalized, top measured from the top)', async () => {
    const r = await localOcr.analyze(twoPage);
    const title = line(r.blocks, 'RESIDENTIAL CONTRACT OF SALE').Geometry!.BoundingBox!;
    expect(title.Left).toBeCloseTo(72 / W, 3); // 0.1176
    // Baseline at y=720pt from the bottom: the glyph box spans ~[720 - 0.25em, 720 + 0.95em].
    expect(title.Top).toBeGreaterThan((H - 720 - SIZE * 1.1) / H);
    expect(title.Top).toBeLessThan((H - 720 - SIZE * 0.6) / H);
    expect(title.Top! + title.Height!).toBeCloseTo((H - 720) / H, 2); // bottom ≈ baseline (+ descent)
    expect(title.Height! * H).toBeGreaterThan(SIZE * 0.8);
    expect(title.Height! * H).toBeLessThan(SIZE * 1.4);
    expect(title.Width! * W).toBeCloseTo(font.widthOfTextAtSize('RESIDENTIAL CONTRACT OF SALE', SIZE), 0);

    const seller = line(r.blocks, 'Seller: Bob Roe').Geometry!.BoundingBox!;
    expect(seller.Left).toBeCloseTo(360 / W, 3);

    const closing = line(r.blocks, 'Closing Date: August 15, 2025');
    expect(closing.Page).toBe(2);
    expect(closing.Geometry!.BoundingBox!.Left).toBeCloseTo(300 / W, 3);
    expect(closing.Geometry!.BoundingBox!.Top).toBeGreaterThan((H - 100 - 12) / H);
    expect(closing.Geometry!.BoundingBox!.Top).toBeLessThan((H - 100) / H);
  });

  it('links PAGE → LINE → WORD, word boxes inside their line, in order and by character share', async () => {
    const r = await localOcr.analyze(twoPage);
    for (const page of byType(r.blocks, 'PAGE')) {
      const lines = children(r.blocks, page);
      expect(lines.map((l) => l.BlockType)).toEqual(lines.map(() => 'LINE'));
      expect(lines.every((l) => l.Page === page.Page)).toBe(true);
      for (const l of lines) {
        const words = children(r.blocks, l);
        expect(words.map((w) => w.Text).join(' ')).toBe(l.Text);
        const lb = l.Geometry!.BoundingBox!;
        let prevRight = 0;
        for (const w of words) {
          expect(w.BlockType).toBe('WORD');
          expect(w.Page).toBe(l.Page);
          const wb = w.Geometry!.BoundingBox!;
          expect(wb.Left!).toBeGreaterThanOrEqual(lb.Left! - 1e-9);
          expect(wb.Left! + wb.Width!).toBeLessThanOrEqual(lb.Left! + lb.Width! + 1e-9);
          expect(wb.Left!).toBeGreaterThanOrEqual(prevRight - 1e-9);
          prevRight = wb.Left! + wb.Width!;
        }
      }
    }
    const buyer = children(r.blocks, line(r.blocks, 'Buyer: Ann Lee'));
    expect(buyer.map((w) => w.Text)).toEqual(['Buyer:', 'Ann', 'Lee']);
    // "Ann Lee" drawn at x=112: "Ann" starts there; "Lee" starts 4/7 of the item's width further on.
    expect(buyer[1].Geometry!.BoundingBox!.Left).toBeCloseTo(112 / W, 3);
    const annLee = font.widthOfTextAtSize('Ann Lee', SIZE);
    expect(buyer[2].Geometry!.BoundingBox!.Left! * W).toBeCloseTo(112 + (annLee * 4) / 7, 0);
  });

  it('maps a /Rotate 90 page through the viewport: text running down the displayed page', async () => {
    const doc = await PDFDocument.create();
    const f = await doc.embedFont(StandardFonts.Helvetica);
    const p = doc.addPage([W, H]);
    p.setRotation(degrees(90));
    p.drawText('Rotated page contract text', { x: 72, y: 720, size: SIZE, font: f });
    const r = await localOcr.analyze(await doc.save());
    const l = line(r.blocks, 'Rotated page contract text');
    const bb = l.Geometry!.BoundingBox!;
    // Displayed page is 792 wide × 612 tall; user (x, y) → display (y, x).
    expect(bb.Top).toBeCloseTo(72 / W, 3);
    expect(bb.Height! * W).toBeCloseTo(f.widthOfTextAtSize('Rotated page contract text', SIZE), 0);
    expect(bb.Left! * H).toBeGreaterThan(720 - SIZE * 0.4);
    expect(bb.Left! * H).toBeLessThan(720);
    expect(bb.Width!).toBeLessThan(bb.Height!);
    // Polygon starts at the text's top-left (reading order): display (720 + ascent, 72).
    const [tl, tr] = l.Geometry!.Polygon!;
    expect(tl.Y).toBeCloseTo(72 / W, 3);
    expect(tr.Y!).toBeGreaterThan(tl.Y!);
    expect(tl.X! * H).toBeGreaterThan(720);
  });

  it('does not change or detach the caller’s bytes, and accepts a Node Buffer', async () => {
    const copy = Uint8Array.from(twoPage);
    await localOcr.analyze(twoPage);
    expect(twoPage.byteLength).toBe(copy.byteLength);
    expect(Buffer.compare(Buffer.from(twoPage), Buffer.from(copy))).toBe(0);
    const r = await localOcr.analyze(Buffer.from(twoPage));
    expect(r.pageCount).toBe(2);
  });
});
