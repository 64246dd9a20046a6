/**
 * OCR port helpers (byte checks, Textract-shaped block building, box math) and the pure converters behind the
 * local adapter: pdf.js text items → lines/words, tesseract.js output → lines/words.
 */
import { describe, expect, it } from 'vitest';
import { ExtractionError } from '#domain/extraction/types';
import {
  assertPageCount,
  assertPdfBytes,
  buildPageBlocks,
  clampBox,
  DEFAULT_MAX_PAGES,
  geometryOf,
  MAX_PDF_BYTES,
  maxPagesOf,
  unionBoxes,
  type LineSpec,
} from '#ports/ocr';
import { textLayerLines, type TextLayerItem } from '#ports/ocr/text-layer';
import { linesOf } from '#ports/ocr/tesseract';

const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ExtractionError);
    return (e as ExtractionError).code;
  }
  return 'none';
};

describe('assertPdfBytes / page limits', () => {
  it('checks empty, header, then size', () => {
    expect(codeOf(() => assertPdfBytes(new Uint8Array(0)))).toBe('empty_file');
    expect(codeOf(() => assertPdfBytes(Buffer.from('%PDF')))).toBe('not_pdf');
    expect(codeOf(() => assertPdfBytes(Buffer.from(' %PDF-1.7')))).toBe('not_pdf');
    expect(codeOf(() => assertPdfBytes(Buffer.from('%PDF-1.7\n')))).toBe('none');
    expect(codeOf(() => assertPdfBytes(Buffer.from('%PDF-1.7\n0123456789'), 10))).toBe('file_too_large');
    expect(MAX_PDF_BYTES).toBe(26_214_400);
  });

  it('validates maxPages and the page count', () => {
    expect(maxPagesOf()).toBe(DEFAULT_MAX_PAGES);
    expect(maxPagesOf({ maxPages: 11 })).toBe(11);
    expect(() => maxPagesOf({ maxPages: 1.5 })).toThrow(RangeError);
    expect(codeOf(() => assertPageCount(61, 60))).toBe('too_many_pages');
    expect(codeOf(() => assertPageCount(60, 60))).toBe('none');
  });
});

describe('box helpers', () => {
  it('clamps, unions and builds Textract geometry', () => {
    expect(clampBox({ left: -0.1, top: 0.9, width: 0.3, height: 0.2 })).toEqual({ left: 0, top: 0.9, width: expect.closeTo(0.2, 9), height: expect.closeTo(0.1, 9) });
    expect(clampBox({ left: 1.2, top: 0.5, width: 0.1, height: 0.1 }).width).toBe(0);
    expect(unionBoxes([{ left: 0.1, top: 0.2, width: 0.1, height: 0.1 }, { left: 0.5, top: 0.1, width: 0.1, height: 0.05 }])).toEqual({
      left: 0.1,
      top: 0.1,
      width: expect.closeTo(0.5, 9),
      height: expect.closeTo(0.2, 9),
    });
    expect(geometryOf({ left: 0.1, top: 0.2, width: 0.3, height: 0.05 })).toEqual({
      BoundingBox: { Left: 0.1, Top: 0.2, Width: 0.3, Height: expect.closeTo(0.05, 9) },
      Polygon: [
        { X: 0.1, Y: 0.2 },
        { X: expect.closeTo(0.4, 9), Y: 0.2 },
        { X: expect.closeTo(0.4, 9), Y: expect.closeTo(0.25, 9) },
        { X: 0.1, Y: expect.closeTo(0.25, 9) },
      ],
    });
  });
});

describe('buildPageBlocks', () => {
  const lines: LineSpec[] = [
    {
      words: [
        { text: 'Sales', confidence: 90, box: { left: 0.1, top: 0.1, width: 0.05, height: 0.02 } },
        { text: ' Price: ', confidence: 80, box: { left: 0.16, top: 0.1, width: 0.06, height: 0.02 } },
      ],
    },
    { words: [{ text: '  ', confidence: 99, box: { left: 0, top: 0, width: 0.1, height: 0.1 } }] },
    { words: [{ text: '$1', confidence: 140, box: { left: 0.1, top: 0.2, width: 0.02, height: 0.02 } }], confidence: 75 },
  ];

  it('emits PAGE, LINEs, WORDs linked by CHILD ids, dropping empty words and lines', () => {
    const blocks = buildPageBlocks(4, lines);
    expect(blocks.map((b) => b.BlockType)).toEqual(['PAGE', 'LINE', 'LINE', 'WORD', 'WORD', 'WORD']);
    const [page, l1, l2, w1, w2, w3] = blocks;
    expect(blocks.every((b) => b.Page === 4)).toBe(true);
    expect(page.Geometry?.BoundingBox).toEqual({ Left: 0, Top: 0, Width: 1, Height: 1 });
    expect(page.Relationships).toEqual([{ Type: 'CHILD', Ids: [l1.Id, l2.Id] }]);
    expect(l1).toMatchObject({ Text: 'Sales Price:', Confidence: 85, Relationships: [{ Type: 'CHILD', Ids: [w1.Id, w2.Id] }] });
    expect(l1.Geometry?.BoundingBox).toEqual({ Left: 0.1, Top: 0.1, Width: expect.closeTo(0.12, 9), Height: expect.closeTo(0.02, 9) });
    expect(w2).toMatchObject({ Text: 'Price:', Confidence: 80, TextType: 'PRINTED' });
    expect(l2).toMatchObject({ Text: '$1', Confidence: 75 });
    expect(w3.Confidence).toBe(100);
    expect(new Set(blocks.map((b) => b.Id)).size).toBe(6);
  });

  it('gives an empty page a bare PAGE block', () => {
    const [page, ...rest] = buildPageBlocks(1, []);
    expect(page.BlockType).toBe('PAGE');
    expect(page.Relationships).toBeUndefined();
    expect(rest).toEqual([]);
  });
});

// A US-letter page at scale 1, no rotation: display = (x, 792 − y).
const upright = { transform: [1, 0, 0, -1, 0, 792], width: 612, height: 792 };
const helv = { f1: { ascent: 0.75, descent: -0.25 } };
const item = (str: string, x: number, y: number, width: number, size = 10, extra: Partial<TextLayerItem> = {}): TextLayerItem => ({
  str,
  transform: [size, 0, 0, size, x, y],
  width,
  height: size,
  fontName: 'f1',
  ...extra,
});
const texts = (lines: LineSpec[]) => lines.map((l) => l.words.map((w) => w.text).join(' '));

describe('textLayerLines', () => {
  it('joins items on one baseline, splits at column gaps, orders rows top to bottom', () => {
    const lines = textLayerLines(
      [
        item('second row', 72, 600, 50),
        item('Buyer:', 72, 700, 30),
        item('Ann Lee', 106, 700, 35), // 4pt gap = 0.4 em → space
        item(' ', 141, 700, 200), // pdf.js gap filler: a space, not a bridge
        item('Seller:', 360, 700, 32), // 219pt gap > 3 em → new line
      ],
      helv,
      upright,
    );
    expect(texts(lines)).toEqual(['Buyer: Ann Lee', 'Seller:', 'second row']);
    const [buyer] = lines[0].words;
    expect(buyer.box.left).toBeCloseTo(72 / 612, 6);
    expect(buyer.box.top).toBeCloseTo((792 - 700 - 7.5) / 792, 6); // ascent 0.75 em
    expect(buyer.box.height).toBeCloseTo(10 / 792, 6); // ascent − descent = 1 em
    expect(buyer.confidence).toBe(99);
  });

  it('splits words by character share and joins kerned pieces without a space', () => {
    const lines = textLayerLines([item('Con', 72, 700, 15), item('tract 12', 87.5, 700, 40)], helv, upright);
    expect(texts(lines)).toEqual(['Contract 12']);
    const [contract, twelve] = lines[0].words;
    expect(contract.box.left * 612).toBeCloseTo(72, 6);
    expect((contract.box.left + contract.box.width) * 612).toBeCloseTo(87.5 + 25, 6); // 5 of 8 chars of 40pt
    expect(twelve.box.left * 612).toBeCloseTo(87.5 + 30, 6);
  });

  it('keeps superscripts on their line, drops fake-bold duplicates', () => {
    const lines = textLayerLines(
      [item('15', 72, 700, 10), item('th', 82.5, 703, 6, 6), item('day', 92, 700, 15), item('day', 92.4, 700.2, 15)],
      helv,
      upright,
    );
    expect(texts(lines)).toEqual(['15th day']);
  });

  it('handles text rotated in user space and a crop box offset, and drops text outside the page', () => {
    // Text running up the page (90°): baseline origin (100, 100), reading direction +y.
    const rotated = item('Vertical', 100, 100, 40, 10, { transform: [0, 10, -10, 0, 100, 100] });
    const offPage = item('Hidden', 900, 700, 30);
    const lines = textLayerLines([rotated, offPage, item('Body text', 72, 700, 45)], helv, upright);
    expect(texts(lines)).toEqual(['Body text', 'Vertical']);
    const v = lines[1].words[0];
    expect(v.box.top).toBeCloseTo((792 - 140) / 792, 6);
    expect(v.box.height).toBeCloseTo(40 / 792, 6);
    expect(v.box.width).toBeCloseTo(10 / 612, 6);
    // Polygon starts at the text's own top-left: origin + ascent to the left of a bottom-to-top baseline.
    expect(v.polygon![0].x * 612).toBeCloseTo(100 - 7.5, 6);
    expect(v.polygon![0].y * 792).toBeCloseTo(792 - 100, 6);

    // MediaBox [0 0 612 792] shown through CropBox [36 36 576 756]: viewport translates by the crop origin.
    const cropped = { transform: [1, 0, 0, -1, -36, 756], width: 540, height: 720 };
    const [line] = textLayerLines([item('Cropped', 72, 700, 35)], helv, cropped);
    expect(line.words[0].box.left).toBeCloseTo(36 / 540, 6);
    expect(line.words[0].box.top).toBeCloseTo((756 - 707.5) / 720, 6);
  });

  it('ignores marked-content entries, empty strings and degenerate transforms', () => {
    const lines = textLayerLines(
      [{ type: 'beginMarkedContent', id: 'x' }, item('', 72, 700, 0), item('Zero', 72, 650, 20, 10, { transform: [0, 0, 0, 0, 72, 650] }), item('Kept', 72, 600, 20)],
      {},
      upright,
    );
    expect(texts(lines)).toEqual(['Kept']);
    // Unknown font metrics → 0.8 / −0.2 em.
    expect(lines[0].words[0].box.top * 792).toBeCloseTo(792 - 600 - 8, 6);
  });
});

describe('tesseract linesOf', () => {
  it('normalizes pixel boxes to the image and keeps tesseract confidences', () => {
    const page = {
      blocks: [
        {
          paragraphs: [
            {
              lines: [
                {
                  text: 'Earnest Money\n',
                  confidence: 91.5,
                  bbox: { x0: 170, y0: 220, x1: 510, y1: 260 },
                  words: [
                    { text: 'Earnest', confidence: 93, bbox: { x0: 170, y0: 220, x1: 330, y1: 260 } },
                    { text: 'Money', confidence: 90, bbox: { x0: 350, y0: 222, x1: 510, y1: 260 } },
                    { text: ' ', confidence: 10, bbox: { x0: 0, y0: 0, x1: 1, y1: 1 } },
                  ],
                },
              ],
            },
          ],
        },
      ],
    };
    const [line] = linesOf(page, { width: 1700, height: 2200 });
    expect(line.confidence).toBe(91.5);
    expect(line.box).toEqual({ left: 0.1, top: 0.1, width: 0.2, height: 40 / 2200 });
    expect(line.words.map((w) => [w.text, w.confidence])).toEqual([
      ['Earnest', 93],
      ['Money', 90],
    ]);
    expect(linesOf({ blocks: null }, { width: 1, height: 1 })).toEqual([]);
  });
});
