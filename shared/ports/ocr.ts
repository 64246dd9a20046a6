/**
 * The OCR port: turns a PDF into Textract-shaped `Block`s (see `#domain/extraction/types`), whatever produced
 * them — Textract in AWS (`ocr-textract.ts`), or the PDF text layer / tesseract.js locally (`ocr-local.ts`) — so
 * one extractor serves every source.
 *
 * Block shapes emitted by both adapters (all coordinates normalized 0–1, origin at the TOP-left of the page as
 * displayed, i.e. after the page's /Rotate is applied — Textract's convention):
 * - `PAGE`: one per page; `Geometry` is the full page; `Relationships: [{ Type: 'CHILD', Ids: <LINE ids> }]`.
 * - `LINE`: `Text` (its words joined by single spaces), `Confidence` 0–100, `Page` (1-based), `Geometry`
 *   (`BoundingBox {Left, Top, Width, Height}` and a 4-point `Polygon` TL, TR, BR, BL in reading order),
 *   `Relationships: [{ Type: 'CHILD', Ids: <WORD ids> }]`.
 * - `WORD`: `Text` (no whitespace), `Confidence` 0–100, `Page`, `Geometry`, `TextType: 'PRINTED'`.
 * Ids are random UUIDs (unique per run, not stable across runs). Per page the order is PAGE, its LINEs in
 * reading order, then their WORDs; consumers should follow `Relationships` rather than rely on order.
 */
import { randomUUID } from 'node:crypto';
import { ExtractionError, type Block, type OcrResult } from '#domain/extraction/types';

export type { Block, OcrResult };

/** Options of one analysis. */
export interface OcrAnalyzeOptions {
  /** Page limit; a document with more pages fails `too_many_pages` before any page is read. Default 60. */
  maxPages?: number;
}

/** An OCR adapter: PDF bytes in, Textract-shaped blocks out. */
export interface OcrAdapter {
  /**
   * Reads every page of `pdf`.
   * @param pdf the whole PDF file (not modified: adapters copy before handing it to parsers)
   * @returns page count, PAGE/LINE/WORD blocks for all pages, and the method used per 1-based page
   * @throws ExtractionError `empty_file` | `not_pdf` | `file_too_large` | `corrupt_pdf` | `encrypted_pdf` |
   *   `too_many_pages` | `ocr_failed`
   */
  analyze(pdf: Uint8Array, opts?: OcrAnalyzeOptions): Promise<OcrResult>;
}

/** Largest accepted PDF: 25 MiB (26,214,400 bytes). */
export const MAX_PDF_BYTES = 25 * 1024 * 1024;

/** Default page limit of one analysis (pages). */
export const DEFAULT_MAX_PAGES = 60;

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"

/**
 * Cheap checks on the raw bytes, before any parser runs, in this order: 0 bytes → `empty_file`; not starting
 * with `%PDF-` → `not_pdf`; more than {@link MAX_PDF_BYTES} → `file_too_large`.
 * @throws ExtractionError
 */
export function assertPdfBytes(pdf: Uint8Array, maxBytes: number = MAX_PDF_BYTES): void {
  if (!pdf || pdf.byteLength === 0) throw new ExtractionError('empty_file', 'The file is empty (0 bytes).');
  if (pdf.byteLength < PDF_MAGIC.length || PDF_MAGIC.some((b, i) => pdf[i] !== b)) {
    throw new ExtractionError('not_pdf', 'The file is not a PDF (it does not start with "%PDF-").');
  }
  if (pdf.byteLength > maxBytes) {
    throw new ExtractionError(
      'file_too_large',
      `The PDF is ${(pdf.byteLength / 1048576).toFixed(1)} MiB; the limit is ${(maxBytes / 1048576).toFixed(0)} MiB.`,
    );
  }
}

/**
 * The page limit of `opts` (default {@link DEFAULT_MAX_PAGES}), validated.
 * @throws RangeError when `maxPages` is not a positive integer
 */
export function maxPagesOf(opts?: OcrAnalyzeOptions): number {
  const n = opts?.maxPages ?? DEFAULT_MAX_PAGES;
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`maxPages must be a positive integer, got ${n}`);
  return n;
}

/** @throws ExtractionError `too_many_pages` when `pageCount` exceeds `maxPages`. */
export function assertPageCount(pageCount: number, maxPages: number): void {
  if (pageCount > maxPages) {
    throw new ExtractionError('too_many_pages', `The PDF has ${pageCount} pages; the limit is ${maxPages}.`);
  }
}

/** An axis-aligned box, normalized 0–1 to the page as displayed, `top` measured from the top edge. */
export interface NormalizedBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A point normalized 0–1 to the page as displayed (x from the left edge, y from the top edge). */
export interface NormalizedPoint {
  x: number;
  y: number;
}

/** One word to emit. */
export interface WordSpec {
  /** The word; surrounding whitespace is trimmed, and an empty word is dropped. */
  text: string;
  /** 0–100 (clamped). */
  confidence: number;
  box: NormalizedBox;
  /** 4 corners TL, TR, BR, BL in reading order (rotated text); defaults to the box's corners. */
  polygon?: NormalizedPoint[];
}

/** One line to emit: its words in reading order. */
export interface LineSpec {
  words: WordSpec[];
  /** 0–100; defaults to the mean of the words' confidences. */
  confidence?: number;
  /** Defaults to the union of the words' boxes. */
  box?: NormalizedBox;
  /** Defaults to the corners of `box`. */
  polygon?: NormalizedPoint[];
}

/** A new block id (random UUID v4). */
export const newBlockId = (): string => randomUUID();

const clamp01 = (v: number): number => (Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 0);

/** Clamps a confidence to 0–100 (non-finite → 0). */
export const clampConfidence = (c: number): number => (Number.isFinite(c) ? Math.min(100, Math.max(0, c)) : 0);

/** `box` clipped to the page (0–1); a box wholly outside the page gets zero width/height. */
export function clampBox(box: NormalizedBox): NormalizedBox {
  const { left: l, top: t, width: w, height: h } = box;
  // Already inside: returned unchanged (no rounding from right − left).
  if (l >= 0 && t >= 0 && w >= 0 && h >= 0 && l + w <= 1 && t + h <= 1) return { left: l, top: t, width: w, height: h };
  const left = clamp01(box.left);
  const top = clamp01(box.top);
  const right = clamp01(box.left + box.width);
  const bottom = clamp01(box.top + box.height);
  return { left, top, width: Math.max(0, right - left), height: Math.max(0, bottom - top) };
}

/** The smallest box holding all `boxes` (an empty list gives a zero box at the origin). */
export function unionBoxes(boxes: readonly NormalizedBox[]): NormalizedBox {
  if (boxes.length === 0) return { left: 0, top: 0, width: 0, height: 0 };
  let l = Infinity;
  let t = Infinity;
  let r = -Infinity;
  let b = -Infinity;
  for (const x of boxes) {
    l = Math.min(l, x.left);
    t = Math.min(t, x.top);
    r = Math.max(r, x.left + x.width);
    b = Math.max(b, x.top + x.height);
  }
  return { left: l, top: t, width: r - l, height: b - t };
}

/** The axis-aligned box around `points`. */
export function boxOfPoints(points: readonly NormalizedPoint[]): NormalizedBox {
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const left = Math.min(...xs);
  const top = Math.min(...ys);
  return { left, top, width: Math.max(...xs) - left, height: Math.max(...ys) - top };
}

/** Corners TL, TR, BR, BL of `box`. */
export function cornersOf(box: NormalizedBox): NormalizedPoint[] {
  const r = box.left + box.width;
  const b = box.top + box.height;
  return [
    { x: box.left, y: box.top },
    { x: r, y: box.top },
    { x: r, y: b },
    { x: box.left, y: b },
  ];
}

/** Textract `Geometry` of a box (clamped to the page), with `polygon` (clamped) or the box's corners. */
export function geometryOf(box: NormalizedBox, polygon?: readonly NormalizedPoint[]): NonNullable<Block['Geometry']> {
  const b = clampBox(box);
  const pts = polygon && polygon.length === 4 ? polygon.map((p) => ({ x: clamp01(p.x), y: clamp01(p.y) })) : cornersOf(b);
  return {
    BoundingBox: { Left: b.left, Top: b.top, Width: b.width, Height: b.height },
    Polygon: pts.map((p) => ({ X: p.x, Y: p.y })),
  };
}

/** Geometry of a whole page. */
export const fullPageGeometry = (): NonNullable<Block['Geometry']> => geometryOf({ left: 0, top: 0, width: 1, height: 1 });

const mean = (xs: readonly number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/**
 * The blocks of one page: a PAGE block, then one LINE per non-empty line (words with empty text dropped; lines
 * left without words dropped), then the WORD blocks, linked by CHILD relationships.
 * @param page 1-based page number
 * @returns `[PAGE, ...LINE, ...WORD]`; a page without lines still gets its PAGE block (no Relationships)
 */
export function buildPageBlocks(page: number, lines: readonly LineSpec[]): Block[] {
  const lineBlocks: Block[] = [];
  const wordBlocks: Block[] = [];
  for (const line of lines) {
    const words = line.words
      .map((w) => ({ ...w, text: w.text.trim() }))
      .filter((w) => w.text.length > 0);
    if (words.length === 0) continue;
    const wordIds: string[] = [];
    for (const w of words) {
      const id = newBlockId();
      wordIds.push(id);
      wordBlocks.push({
        BlockType: 'WORD',
        Id: id,
        Page: page,
        Text: w.text,
        TextType: 'PRINTED',
        Confidence: clampConfidence(w.confidence),
        Geometry: geometryOf(w.box, w.polygon),
      });
    }
    lineBlocks.push({
      BlockType: 'LINE',
      Id: newBlockId(),
      Page: page,
      Text: words.map((w) => w.text).join(' '),
      Confidence: clampConfidence(line.confidence ?? mean(words.map((w) => clampConfidence(w.confidence)))),
      Geometry: geometryOf(line.box ?? unionBoxes(words.map((w) => clampBox(w.box))), line.polygon),
      Relationships: [{ Type: 'CHILD', Ids: wordIds }],
    });
  }
  const pageBlock: Block = { BlockType: 'PAGE', Id: newBlockId(), Page: page, Geometry: fullPageGeometry() };
  if (lineBlocks.length) pageBlock.Relationships = [{ Type: 'CHILD', Ids: lineBlocks.map((l) => l.Id!) }];
  return [pageBlock, ...lineBlocks, ...wordBlocks];
}
