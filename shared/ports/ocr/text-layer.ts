/**
 * PDF text layer → lines and words (pure; no pdf.js import). Input is pdf.js `getTextContent()` output of one
 * page plus the page's viewport at scale 1; output is {@link LineSpec}s with boxes normalized 0–1 from the top
 * left of the page as displayed (rotation applied through the viewport transform).
 *
 * Method:
 * 1. Each text item gets its own frame from its transform `[a b c d e f]` (PDF user space, points): reading
 *    direction `u = (a, b)/|(a, b)|`, up direction `n = u` turned +90°, font size `|(c, d)|`. Items are bucketed by
 *    direction (whole degrees), so rotated text and rotated pages group correctly.
 * 2. Within a direction, items whose glyph extents (along `n`) overlap by at least half the smaller height
 *    share a row (superscripts join; the next line does not); a row splits into LINEs where the gap between
 *    items exceeds 3 × the font size (columns, form fields).
 *    A space is inserted between items when they are > 0.15 em apart and neither side has one; pdf.js's own
 *    whitespace items count as spaces but never bridge a gap.
 *    Exact duplicates (same text drawn again within 0.2 em — fake bold) are dropped.
 * 3. WORDs split the line text on whitespace; each character gets an equal share of its item's width, and a
 *    word's box runs from its first character's start to its last character's end, vertically from the font's
 *    descent to its ascent (pdf.js style metrics; 0.8/−0.2 em when unknown).
 */
import type { LineSpec, NormalizedPoint, WordSpec } from '#ports/ocr';
import { boxOfPoints, clampBox } from '#ports/ocr';

/** The fields of a pdf.js `TextItem` used here. `transform` is in PDF user space; `width` in points. */
export interface TextLayerItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
  fontName: string;
  dir?: string;
}

/** The fields of a pdf.js `TextStyle` used here (em units). */
export interface TextLayerStyle {
  ascent?: number;
  descent?: number;
  vertical?: boolean;
}

/** A pdf.js `PageViewport` at scale 1: `transform` maps user space → display points, `width`/`height` in points. */
export interface PageFrame {
  transform: number[];
  width: number;
  height: number;
}

/** Confidence given to words read from the text layer (0–100). */
export const TEXT_LAYER_CONFIDENCE = 99;

const ROW_OVERLAP = 0.5;
const LINE_GAP_EM = 3;
const SPACE_GAP_EM = 0.15;
const DUPLICATE_EM = 0.2;

interface Placed {
  str: string;
  /** Start/end along the reading direction, points. */
  x0: number;
  x1: number;
  /** Baseline along the up direction, points. */
  y: number;
  /** Font size, points. */
  size: number;
  ascent: number;
  descent: number;
}

interface Char {
  ch: string;
  x0: number;
  x1: number;
  top: number;
  bottom: number;
}

interface Bucket {
  angle: number;
  u: [number, number];
  n: [number, number];
  items: Placed[];
}

function metric(v: number | undefined, fallback: number, lo: number, hi: number): number {
  return typeof v === 'number' && Number.isFinite(v) && v !== 0 ? Math.min(hi, Math.max(lo, v)) : fallback;
}

/**
 * Lines and words of one page's text layer, in reading order (dominant text direction first, then rows top to
 * bottom, then left to right), with {@link TEXT_LAYER_CONFIDENCE}.
 * @param items pdf.js text items (marked-content entries without `str` are ignored)
 * @param styles pdf.js styles by `fontName`
 * @param frame the page viewport at scale 1
 */
export function textLayerLines(
  items: readonly unknown[],
  styles: Readonly<Record<string, TextLayerStyle>>,
  frame: PageFrame,
): LineSpec[] {
  const buckets = new Map<number, Bucket>();
  for (const raw of items) {
    const it = raw as Partial<TextLayerItem>;
    if (typeof it?.str !== 'string' || it.str.length === 0 || !Array.isArray(it.transform)) continue;
    const [a, b, c, d, e, f] = it.transform.map(Number);
    if (![a, b, c, d, e, f].every(Number.isFinite)) continue;
    const sx = Math.hypot(a, b);
    const sy = Math.hypot(c, d);
    if (sx === 0 && sy === 0) continue;
    const theta = sx > 0 ? Math.atan2(b, a) : Math.atan2(-c, d);
    const angle = ((Math.round((theta * 180) / Math.PI) % 360) + 360) % 360;
    let bucket = buckets.get(angle);
    if (!bucket) {
      const rad = (angle * Math.PI) / 180;
      const u: [number, number] = [Math.cos(rad), Math.sin(rad)];
      bucket = { angle, u, n: [-u[1], u[0]], items: [] };
      buckets.set(angle, bucket);
    }
    const { u, n } = bucket;
    const style = styles[it.fontName ?? ''] ?? {};
    const size = sy || sx;
    // Mirrored glyphs (up vector against n) flip ascent/descent.
    const up = c * n[0] + d * n[1] >= 0 ? 1 : -1;
    const asc = metric(style.ascent, 0.8, 0.3, 1.5) * size * up;
    const desc = metric(style.descent, -0.2, -0.6, 0) * size * up;
    const x0 = e * u[0] + f * u[1];
    const width = Math.max(0, Number(it.width) || 0);
    bucket.items.push({
      str: it.str,
      x0,
      x1: x0 + width,
      y: e * n[0] + f * n[1],
      size,
      ascent: Math.max(asc, desc),
      descent: Math.min(asc, desc),
    });
  }

  const lines: LineSpec[] = [];
  const ordered = [...buckets.values()].sort((p, q) => q.items.length - p.items.length || p.angle - q.angle);
  for (const bucket of ordered) {
    for (const row of rowsOf(bucket.items)) {
      for (const segment of splitRow(row)) {
        const line = lineOf(segment, bucket, frame);
        if (line) lines.push(line);
      }
    }
  }
  return lines;
}

/**
 * Items grouped into rows, top (largest y) first, each row sorted by x. An item joins the current row when its
 * glyph extent (descent..ascent) overlaps the row's by at least half of the smaller of the two heights — so a
 * superscript or a larger word on the same baseline joins, while the next line of text (even with tight leading)
 * does not.
 */
function rowsOf(items: Placed[]): Placed[][] {
  const sorted = [...items].sort((p, q) => q.y - p.y || p.x0 - q.x0);
  const rows: { top: number; bottom: number; items: Placed[] }[] = [];
  for (const it of sorted) {
    const top = it.y + it.ascent;
    const bottom = it.y + it.descent;
    const row = rows[rows.length - 1];
    const overlap = row ? Math.min(row.top, top) - Math.max(row.bottom, bottom) : 0;
    if (row && overlap >= ROW_OVERLAP * Math.min(row.top - row.bottom, top - bottom)) {
      row.items.push(it);
      row.top = Math.max(row.top, top);
      row.bottom = Math.min(row.bottom, bottom);
    } else {
      rows.push({ top, bottom, items: [it] });
    }
  }
  return rows.map((r) => dedupe(r.items.sort((p, q) => p.x0 - q.x0)));
}

/** Drops a second drawing of the same text at (almost) the same place (simulated bold, shadows). */
function dedupe(row: Placed[]): Placed[] {
  const out: Placed[] = [];
  for (const it of row) {
    const dup = out.some(
      (o) => o.str === it.str && Math.abs(o.x0 - it.x0) <= DUPLICATE_EM * it.size && Math.abs(o.y - it.y) <= DUPLICATE_EM * it.size,
    );
    if (!dup) out.push(it);
  }
  return out;
}

/** Splits a row where the horizontal gap exceeds {@link LINE_GAP_EM}. */
function splitRow(row: Placed[]): Placed[][] {
  const segments: Placed[][] = [];
  let current: Placed[] = [];
  let right = -Infinity;
  for (const it of row) {
    if (!/\S/.test(it.str)) {
      // pdf.js emits whitespace items spanning gaps (even across columns): a space, never a bridge.
      if (current.length) current.push(it);
      continue;
    }
    const gap = it.x0 - right;
    if (current.length && gap > LINE_GAP_EM * Math.max(it.size, current[0].size)) {
      segments.push(current);
      current = [];
    }
    current.push(it);
    right = Math.max(right, it.x1);
  }
  if (current.length) segments.push(current);
  return segments;
}

function lineOf(segment: Placed[], bucket: Bucket, frame: PageFrame): LineSpec | null {
  const chars: (Char | null)[] = [];
  let prevRight = -Infinity;
  let prevEndsSpace = true;
  for (const it of segment) {
    const glyphs = Array.from(it.str);
    const startsSpace = /^\s/.test(it.str);
    if (chars.length && !prevEndsSpace && !startsSpace && it.x0 - prevRight > SPACE_GAP_EM * it.size) chars.push(null);
    const per = glyphs.length ? (it.x1 - it.x0) / glyphs.length : 0;
    glyphs.forEach((ch, i) => {
      if (/\s/.test(ch)) chars.push(null);
      else chars.push({ ch, x0: it.x0 + per * i, x1: it.x0 + per * (i + 1), top: it.y + it.ascent, bottom: it.y + it.descent });
    });
    prevRight = Math.max(prevRight, it.x1);
    prevEndsSpace = /\s$/.test(it.str);
  }

  const words: WordSpec[] = [];
  let run: Char[] = [];
  const flush = () => {
    if (run.length === 0) return;
    const word = wordOf(run, bucket, frame);
    if (word) words.push(word);
    run = [];
  };
  for (const c of chars) {
    if (c) run.push(c);
    else flush();
  }
  flush();
  if (words.length === 0) return null;
  const kept = chars.filter((c): c is Char => c !== null);
  return { words, polygon: quadOf(kept, bucket, frame) };
}

/** Corners TL, TR, BR, BL (reading order) of the characters' extent, normalized. */
function quadOf(run: Char[], bucket: Bucket, frame: PageFrame): NormalizedPoint[] {
  const x0 = Math.min(...run.map((c) => c.x0));
  const x1 = Math.max(...run.map((c) => c.x1));
  const top = Math.max(...run.map((c) => c.top));
  const bottom = Math.min(...run.map((c) => c.bottom));
  return [
    toPage(x0, top, bucket, frame),
    toPage(x1, top, bucket, frame),
    toPage(x1, bottom, bucket, frame),
    toPage(x0, bottom, bucket, frame),
  ];
}

function wordOf(run: Char[], bucket: Bucket, frame: PageFrame): WordSpec | null {
  const polygon = quadOf(run, bucket, frame);
  const box = clampBox(boxOfPoints(polygon));
  if (box.width <= 0 || box.height <= 0) return null; // wholly outside the visible page (crop box)
  return { text: run.map((c) => c.ch).join(''), confidence: TEXT_LAYER_CONFIDENCE, box, polygon };
}

/** A point of a bucket's frame (x along u, y along n, points) → normalized display coordinates. */
function toPage(x: number, y: number, bucket: Bucket, frame: PageFrame): NormalizedPoint {
  const ux = x * bucket.u[0] + y * bucket.n[0];
  const uy = x * bucket.u[1] + y * bucket.n[1];
  const [a, b, c, d, e, f] = frame.transform;
  return { x: (a * ux + c * uy + e) / frame.width, y: (b * ux + d * uy + f) / frame.height };
}
