/**
 * Struck-through text in a PDF's text layer. A counter-offer strikes the old value and initials the new one;
 * the struck word is still in the text layer, so without this both values would be read. Strikes come as thin
 * horizontal shapes drawn over the words (a stroked line or a filled thin rectangle, as e-signature platforms
 * and pdf-lib draw them) or as StrikeOut annotations. A word counts as struck when such a mark covers most of
 * its width through the middle band of its height (an underline runs along the baseline, below that band).
 */
import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { LineSpec, NormalizedBox } from '#ports/ocr';
import { boxOfPoints } from '#ports/ocr';
import { pdfjs } from '#ports/ocr/pdfjs';

/** Thickest mark taken for a strike line, points; thinner marks shorter than {@link MIN_LENGTH_PT} are ignored. */
const MAX_THICKNESS_PT = 3;
const MIN_LENGTH_PT = 6;

type Matrix = [number, number, number, number, number, number];

const multiply = (m: Matrix, n: number[]): Matrix => [
  m[0] * n[0] + m[2] * n[1],
  m[1] * n[0] + m[3] * n[1],
  m[0] * n[2] + m[2] * n[3],
  m[1] * n[2] + m[3] * n[3],
  m[0] * n[4] + m[2] * n[5] + m[4],
  m[1] * n[4] + m[3] * n[5] + m[5],
];
const apply = (m: number[], x: number, y: number) => ({ x: m[0] * x + m[2] * y + m[4], y: m[1] * x + m[3] * y + m[5] });

/**
 * Boxes (normalized to the page as displayed, top-left origin) of the page's strike-like marks: painted paths
 * whose bounding box is at most 3 pt thick and at least 6 pt long, and StrikeOut annotations.
 */
export async function strikeMarks(page: PDFPageProxy): Promise<NormalizedBox[]> {
  const { OPS } = await pdfjs();
  const viewport = page.getViewport({ scale: 1 });
  const toNormalized = (points: { x: number; y: number }[]): NormalizedBox => {
    const display = points.map((p) => apply(viewport.transform, p.x, p.y));
    return boxOfPoints(display.map((p) => ({ x: p.x / viewport.width, y: p.y / viewport.height })));
  };
  const out: NormalizedBox[] = [];
  const { fnArray, argsArray } = await page.getOperatorList();
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  const stack: Matrix[] = [];
  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i];
    if (fn === OPS.save) stack.push(ctm);
    else if (fn === OPS.restore) ctm = stack.pop() ?? ctm;
    else if (fn === OPS.transform) ctm = multiply(ctm, argsArray[i] as number[]);
    else if (fn === OPS.constructPath) {
      const [paint, , minMax] = argsArray[i] as [number, unknown, ArrayLike<number> | null];
      if (!minMax || paint === OPS.endPath) continue;
      const corners = [apply(ctm, minMax[0], minMax[1]), apply(ctm, minMax[2], minMax[1]), apply(ctm, minMax[2], minMax[3]), apply(ctm, minMax[0], minMax[3])];
      const w = Math.max(...corners.map((c) => c.x)) - Math.min(...corners.map((c) => c.x));
      const h = Math.max(...corners.map((c) => c.y)) - Math.min(...corners.map((c) => c.y));
      if (h <= MAX_THICKNESS_PT && w >= MIN_LENGTH_PT) out.push(toNormalized(corners));
    }
  }
  for (const a of (await page.getAnnotations()) as { subtype?: string; rect?: number[] }[]) {
    if (a.subtype !== 'StrikeOut' || !a.rect) continue;
    const [x0, y0, x1, y1] = a.rect;
    const box = toNormalized([
      { x: x0, y: y0 },
      { x: x1, y: y1 },
    ]);
    // The annotation's rectangle covers the struck text: mark its middle line.
    out.push({ left: box.left, top: box.top + box.height / 2, width: box.width, height: 0 });
  }
  return out;
}

/** True when `mark` crosses `word` through the middle of its height over most (≥ 60 %) of its width. */
export function crosses(mark: NormalizedBox, word: NormalizedBox): boolean {
  const overlap = Math.min(mark.left + mark.width, word.left + word.width) - Math.max(mark.left, word.left);
  if (overlap < 0.6 * word.width) return false;
  const cy = mark.top + mark.height / 2;
  return cy >= word.top + 0.3 * word.height && cy <= word.top + 0.75 * word.height;
}

/** The lines without their struck words (a line left empty is dropped). */
export function dropStruckWords(lines: LineSpec[], marks: NormalizedBox[]): LineSpec[] {
  if (!marks.length) return lines;
  return lines
    .map((l) => {
      const words = l.words.filter((w) => !marks.some((m) => crosses(m, w.box)));
      return words.length === l.words.length ? l : { words };
    })
    .filter((l) => l.words.length > 0);
}
