/**
 * Builds Textract-shaped LINE/WORD blocks from a small layout description — for unit tests, demos and
 * fixtures that need OCR output without a PDF. Geometry is approximate: each character is `charWidth` wide
 * (default 0.0075 of the page width, about 10-pt Helvetica on a letter page) and each line `lineHeight`
 * tall (default 0.011).
 */
import type { Block } from '#domain/extraction/types';

/** One text item placed on a page: its left edge (0–1), text and optional OCR confidence (0–100, default 99). */
export interface ItemSpec {
  left: number;
  text: string;
  confidence?: number;
  /** Vertical offset from the row's top (normalized), e.g. a value drawn slightly above the baseline. */
  dy?: number;
}

/** A row of items at `top` (0–1 from the page top). */
export interface RowSpec {
  top: number;
  items: ItemSpec[];
}

/** Layout options of {@link buildBlocks}. */
export interface BuildOptions {
  charWidth?: number;
  lineHeight?: number;
}

let seq = 0;
const id = (): string => `b${(++seq).toString(36)}`;

/**
 * Blocks for pages of rows: one LINE per item (its text as given) with one WORD per whitespace-separated
 * word, `Page` set, boxes normalized with a top-left origin, `Confidence` on Textract's 0–100 scale.
 * @param pages page number (1-based) → rows
 */
export function buildBlocks(pages: Record<number, RowSpec[]>, opts: BuildOptions = {}): Block[] {
  const cw = opts.charWidth ?? 0.0075;
  const lh = opts.lineHeight ?? 0.011;
  const out: Block[] = [];
  for (const [pageKey, rows] of Object.entries(pages)) {
    const page = Number(pageKey);
    for (const row of rows) {
      for (const item of row.items) {
        const top = row.top + (item.dy ?? 0);
        const confidence = item.confidence ?? 99;
        const wordIds: string[] = [];
        const words: Block[] = [];
        for (const m of item.text.matchAll(/\S+/g)) {
          const left = item.left + (m.index ?? 0) * cw;
          const wid = id();
          wordIds.push(wid);
          words.push({
            BlockType: 'WORD',
            Id: wid,
            Page: page,
            Text: m[0],
            TextType: 'PRINTED',
            Confidence: confidence,
            Geometry: { BoundingBox: { Left: left, Top: top, Width: m[0].length * cw, Height: lh } },
          });
        }
        if (!words.length) continue;
        out.push({
          BlockType: 'LINE',
          Id: id(),
          Page: page,
          Text: item.text.trim().replace(/\s+/g, ' '),
          Confidence: confidence,
          Geometry: { BoundingBox: { Left: item.left, Top: top, Width: item.text.length * cw, Height: lh } },
          Relationships: [{ Type: 'CHILD', Ids: wordIds }],
        });
        out.push(...words);
      }
    }
  }
  return out;
}

/** Shorthand for a row: `row(0.1, [0.08, 'Label'], [0.4, 'value'])`. */
export const row = (top: number, ...items: [number, string, number?][]): RowSpec => ({
  top,
  items: items.map(([left, text, confidence]) => ({ left, text, ...(confidence !== undefined ? { confidence } : {}) })),
});
