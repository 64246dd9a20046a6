/**
 * Geometry-aware text helpers over Textract-shaped OCR blocks (LINE/WORD with `Page`, a normalized
 * `Geometry.BoundingBox` with top-left origin, and `Confidence` 0–100; plus SELECTION_ELEMENT checkboxes when
 * the source emits them, as Textract's FORMS analysis does), shared by every form's rules.
 *
 * The model: a page is a list of **tokens** (whitespace-separated words with their boxes), grouped into
 * **rows** by vertical overlap and read left to right, rows top to bottom. Reading order therefore comes from
 * geometry, not from the order the blocks were emitted: a value typed into a flattened form's blank is a
 * separate text item drawn last, yet it lands between the words it sits between on the page.
 *
 * Label matching is tolerant to OCR noise in a simple, documented way (see {@link normalizeKey}): labels and
 * page text are both reduced to lowercase letters and digits with the confusions 0→o, 1/|/i/!→l and $→s
 * folded, spaces removed (so split or merged words still match), then searched exactly, and failing that with
 * a small edit distance (about one error per eight characters).
 */
import type { Block, Citation } from '#domain/extraction/types';
import { stampEdits } from '#domain/extraction/stamps';

/** A normalized box (0–1 of page width/height, top-left origin), Textract's `BoundingBox` in lowercase keys. */
export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** One word of a page with its box and OCR confidence (0–100). */
export interface Token {
  text: string;
  /** {@link normalizeKey} of `text`: what label matching compares. */
  key: string;
  page: number;
  box: Box;
  /** 0–100, Textract's scale. */
  confidence: number;
}

/** Tokens sharing a visual line, left to right. */
export interface Row {
  page: number;
  tokens: Token[];
  box: Box;
}

/** A page's rows (top to bottom) and its tokens in reading order (row by row). */
export interface PageText {
  page: number;
  rows: Row[];
  tokens: Token[];
  /** Row index of each token of `tokens`. */
  rowOf: number[];
  /** The page's text: tokens joined by spaces, rows by newlines. */
  raw: string;
  /** Token index of each character of `raw` (-1 for separators). */
  rawOwner: number[];
  /** Concatenated {@link normalizeKey} characters of the tokens (what labels are matched against). */
  key: string;
  /** Index in `raw` of each character of `key`. */
  keyToRaw: number[];
  /** [start, end) of each row in `raw`. */
  rowRaw: [number, number][];
}

/** A document's pages keyed by 1-based page number. */
export interface DocText {
  pages: Map<number, PageText>;
  pageCount: number;
}

/**
 * Where a label was found: the page, the first and last token indices (inclusive), the matched characters
 * of the page's `raw` text [rawStart, rawEnd), and the edit distance. A label may cover part of a token
 * (OCR and text layers glue neighbours: "20thday of").
 */
export interface Match {
  page: number;
  start: number;
  end: number;
  tokens: Token[];
  rawStart: number;
  rawEnd: number;
  /** Edit distance between the label and the matched text (0 = exact after normalization). */
  distance: number;
}

/** Text read from a page span, with the tokens it came from (for confidence and citations). */
export interface Span {
  page: number;
  text: string;
  tokens: Token[];
}

/** A rectangle limiting a search, in normalized page coordinates; omitted sides are unbounded. */
export interface Region {
  left?: number;
  right?: number;
  top?: number;
  bottom?: number;
}

const EMPTY_BOX: Box = { left: 0, top: 0, width: 0, height: 0 };

/** The normalized bounding box of a block (zeros when the block has no geometry). */
export function boxOf(block: Block): Box {
  const b = block.Geometry?.BoundingBox;
  if (!b) return { ...EMPTY_BOX };
  return { left: b.Left ?? 0, top: b.Top ?? 0, width: b.Width ?? 0, height: b.Height ?? 0 };
}

/** The smallest box containing all `boxes` (zeros for none). */
export function unionBox(boxes: Box[]): Box {
  if (boxes.length === 0) return { ...EMPTY_BOX };
  const left = Math.min(...boxes.map((b) => b.left));
  const top = Math.min(...boxes.map((b) => b.top));
  const right = Math.max(...boxes.map((b) => b.left + b.width));
  const bottom = Math.max(...boxes.map((b) => b.top + b.height));
  return { left, top, width: right - left, height: bottom - top };
}

/**
 * Label-matching key of a text: lowercase, curly quotes and dashes dropped, only letters and digits kept,
 * with the OCR confusions `0`→`o`, `1`/`|`/`i`/`!`→`l` and `$`→`s` folded (so "SELLER", "Se1ler" and
 * "SeIler" share a key). Spaces are removed; matching works on the concatenated keys of a page.
 */
export function normalizeKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/[0]/g, 'o')
    .replace(/[1|i!]/g, 'l')
    .replace(/\$/g, 's')
    .replace(/[^a-z0-9]/g, '');
}

/** {@link normalizeKey} of one character ('' when it is dropped). */
const keyChar = (ch: string): string => normalizeKey(ch);

/** Collapses runs of whitespace to one space and trims. */
export const collapseSpaces = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** Splits a block into whitespace-separated tokens, apportioning its box by character count. */
function splitBlock(block: Block): Token[] {
  const text = block.Text ?? '';
  const page = block.Page ?? 1;
  const box = boxOf(block);
  const confidence = block.Confidence ?? 0;
  const parts = [...text.matchAll(/\S+/g)];
  if (parts.length <= 1) {
    const t = text.trim();
    return t ? [{ text: t, key: normalizeKey(t), page, box, confidence }] : [];
  }
  const total = Math.max(text.length, 1);
  return parts.map((m) => {
    const start = m.index ?? 0;
    return {
      text: m[0],
      key: normalizeKey(m[0]),
      page,
      box: {
        left: box.left + (box.width * start) / total,
        top: box.top,
        width: (box.width * m[0].length) / total,
        height: box.height,
      },
      confidence,
    };
  });
}

/** LINE blocks of each page, in reading order (rows top to bottom, left to right within a row). */
export function linesByPage(blocks: Block[]): Map<number, Block[]> {
  const out = new Map<number, Block[]>();
  for (const b of blocks) {
    if (b.BlockType !== 'LINE') continue;
    const p = b.Page ?? 1;
    out.set(p, [...(out.get(p) ?? []), b]);
  }
  for (const [p, lines] of out) {
    const rows = groupRows(lines.map((b) => ({ item: b, box: boxOf(b) })));
    out.set(p, rows.flat());
  }
  return out;
}

/**
 * Groups boxed items into rows. Pass 1 clusters items of ordinary height (≤ 1.6 × the page's median): sorted
 * by vertical center, an item joins a recent row when its center lies within half the smaller of (the row's
 * median height, its own height) of the row's center (its first item's center; rows do not drift). Text
 * skewed by more than about half a line across the page (a crooked scan) splits into several rows. Pass 2 puts each taller item (a logo glyph, an OCR box
 * stretched by a descender or a mark) into the row whose center is nearest its own among the rows its span
 * covers, or a new row. So one tall item neither stretches a row nor glues two rows together.
 * Rows top→bottom, items left→right.
 */
function groupRows<T>(items: { item: T; box: Box }[]): T[][] {
  const center = (b: Box) => b.top + b.height / 2;
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  const pageMedian = median(items.map((i) => i.box.height));
  const isTall = (b: Box) => pageMedian > 0 && b.height > 1.6 * pageMedian;
  type RowAcc = { center: number; heights: number[]; members: { item: T; box: Box }[] };
  const rows: RowAcc[] = [];
  const ordinary = items.filter((i) => !isTall(i.box)).sort((a, b) => center(a.box) - center(b.box));
  for (const it of ordinary) {
    const c = center(it.box);
    const h = Math.max(it.box.height, 0.001);
    let target: RowAcc | undefined;
    for (let i = rows.length - 1; i >= Math.max(0, rows.length - 4); i--) {
      const r = rows[i];
      if (Math.abs(c - r.center) <= 0.5 * Math.min(median(r.heights), h)) {
        target = r;
        break;
      }
    }
    if (target) {
      // The row keeps its first item's center: letting it drift toward joiners lets a second column whose
      // baselines sit half a line lower pull two lines of the first column into one row.
      target.members.push(it);
      target.heights.push(h);
    } else rows.push({ center: c, heights: [h], members: [it] });
  }
  for (const it of items.filter((i) => isTall(i.box))) {
    const c = center(it.box);
    // A tall box is usually a word stretched downward (a descender, a glued word from the next line): its
    // top still lines up with its own row's tops.
    const covering = rows.filter((r) => r.center >= it.box.top && r.center <= it.box.top + it.box.height);
    const topOf = (r: RowAcc) => median(r.members.map((m) => m.box.top));
    const target = covering.sort((a, b) => Math.abs(topOf(a) - it.box.top) - Math.abs(topOf(b) - it.box.top))[0];
    if (target) target.members.push(it);
    else rows.push({ center: c, heights: [it.box.height], members: [it] });
  }
  rows.sort((a, b) => a.center - b.center);
  return rows.map((r) => r.members.sort((a, b) => a.box.left - b.box.left).map((m) => m.item));
}

/**
 * Builds the geometric text model of a document. WORD blocks are used for pages that have them; otherwise
 * LINE blocks are split into words (boxes apportioned by characters). Blocks without `Page` count as page 1.
 * E-signature platform stamps (stamps.ts: "dotloop verified", its date/time/id, envelope ids) are dropped.
 */
export function buildDocText(blocks: Block[], pageCount?: number): DocText {
  const words = new Map<number, Block[]>();
  const lines = new Map<number, Block[]>();
  for (const b of blocks) {
    const p = b.Page ?? 1;
    if (b.BlockType === 'WORD') words.set(p, [...(words.get(p) ?? []), b]);
    else if (b.BlockType === 'LINE') lines.set(p, [...(lines.get(p) ?? []), b]);
  }
  const pageNums = new Set([...words.keys(), ...lines.keys()]);
  const pages = new Map<number, PageText>();
  for (const page of [...pageNums].sort((a, b) => a - b)) {
    const source = words.get(page)?.length ? words.get(page)! : (lines.get(page) ?? []);
    const all = source.flatMap(splitBlock);
    const edits = stampEdits(all);
    const tokens = edits.size
      ? all.flatMap((t, i) => {
          const text = edits.get(i);
          if (text === undefined) return [t];
          return text ? [{ ...t, text, key: normalizeKey(text) }] : [];
        })
      : all;
    const grouped = groupRows(tokens.map((t) => ({ item: t, box: t.box })));
    const rows: Row[] = grouped.map((ts) => ({ page, tokens: ts, box: unionBox(ts.map((t) => t.box)) }));
    const ordered: Token[] = [];
    const rowOf: number[] = [];
    rows.forEach((r, i) => {
      for (const t of r.tokens) {
        ordered.push(t);
        rowOf.push(i);
      }
    });
    let raw = '';
    const rawOwner: number[] = [];
    let key = '';
    const keyToRaw: number[] = [];
    const rowRaw: [number, number][] = rows.map(() => [0, 0]);
    ordered.forEach((t, i) => {
      if (i === 0 || rowOf[i] !== rowOf[i - 1]) rowRaw[rowOf[i]][0] = raw.length + (i > 0 ? 1 : 0);
      if (i > 0) {
        raw += rowOf[i] === rowOf[i - 1] ? ' ' : '\n';
        rawOwner.push(-1);
      }
      for (const ch of t.text) {
        const k = keyChar(ch);
        for (const kc of k) {
          key += kc;
          keyToRaw.push(raw.length);
        }
        raw += ch;
        for (let c = 0; c < ch.length; c++) rawOwner.push(i);
      }
      rowRaw[rowOf[i]][1] = raw.length;
    });
    pages.set(page, { page, rows, tokens: ordered, rowOf, raw, rawOwner, key, keyToRaw, rowRaw });
  }
  return { pages, pageCount: pageCount ?? Math.max(0, ...pageNums) };
}

/** True when a box's center lies inside the region. */
export function inRegion(box: Box, region?: Region): boolean {
  if (!region) return true;
  const cx = box.left + box.width / 2;
  const cy = box.top + box.height / 2;
  return (
    (region.left === undefined || cx >= region.left) &&
    (region.right === undefined || cx <= region.right) &&
    (region.top === undefined || cy >= region.top) &&
    (region.bottom === undefined || cy <= region.bottom)
  );
}

/**
 * Approximate substring search (Sellers' algorithm): the first occurrence of `pattern` in `text` with at most
 * `maxErrors` edits, refined to the local best end. Returns character offsets [start, end) and the distance.
 */
export function approxFind(
  text: string,
  pattern: string,
  maxErrors: number,
  from = 0,
): { start: number; end: number; distance: number } | null {
  if (!pattern) return null;
  const exact = text.indexOf(pattern, from);
  if (exact >= 0 || maxErrors === 0) {
    return exact >= 0 ? { start: exact, end: exact + pattern.length, distance: 0 } : null;
  }
  const m = pattern.length;
  let prevCost = new Array<number>(m + 1);
  let prevStart = new Array<number>(m + 1);
  for (let i = 0; i <= m; i++) {
    prevCost[i] = i;
    prevStart[i] = from;
  }
  let best: { start: number; end: number; distance: number } | null = null;
  for (let j = from; j < text.length; j++) {
    const cost = new Array<number>(m + 1);
    const start = new Array<number>(m + 1);
    cost[0] = 0;
    start[0] = j + 1;
    for (let i = 1; i <= m; i++) {
      const sub = prevCost[i - 1] + (pattern[i - 1] === text[j] ? 0 : 1);
      const del = prevCost[i] + 1; // text char unmatched
      const ins = cost[i - 1] + 1; // pattern char unmatched
      if (sub <= del && sub <= ins) {
        cost[i] = sub;
        start[i] = i === 1 ? j : prevStart[i - 1];
      } else if (del <= ins) {
        cost[i] = del;
        start[i] = prevStart[i];
      } else {
        cost[i] = ins;
        start[i] = start[i - 1];
      }
    }
    if (cost[m] <= maxErrors) {
      if (!best || cost[m] < best.distance) best = { start: start[m], end: j + 1, distance: cost[m] };
    } else if (best) break;
    if (best && best.distance === 0) break;
    prevCost = cost;
    prevStart = start;
  }
  return best;
}

/** Options of {@link findPhrase}. */
export interface FindOptions {
  /** Search only this page (else every page in order). */
  page?: number;
  /** Search only tokens whose center lies in this region. */
  region?: Region;
  /** Start after this match (same page) — for a label that follows another. */
  after?: Match;
  /** Allowed errors per character (default 1/8); 0 requires an exact normalized match. */
  errorRate?: number;
}

/**
 * Finds a label phrase (see {@link normalizeKey} for the tolerance) and returns the tokens it covers, or null.
 * A match must cover at least one whole token at each end; partial tokens at the edges are included.
 */
export function findPhrase(doc: DocText, phrase: string, opts: FindOptions = {}): Match | null {
  const pattern = normalizeKey(phrase);
  if (!pattern) return null;
  const pages = opts.page !== undefined ? [opts.page] : [...doc.pages.keys()];
  const maxErrors = Math.floor(pattern.length * (opts.errorRate ?? 1 / 8));
  for (const pageNum of pages) {
    const page = doc.pages.get(pageNum);
    if (!page) continue;
    const minRaw = opts.after && opts.after.page === pageNum ? opts.after.rawEnd : 0;
    let text = '';
    const toRaw: number[] = [];
    for (let k = 0; k < page.key.length; k++) {
      const r = page.keyToRaw[k];
      if (r < minRaw) continue;
      if (opts.region && !inRegion(page.tokens[page.rawOwner[r]].box, opts.region)) continue;
      text += page.key[k];
      toRaw.push(r);
    }
    const hit = approxFind(text, pattern, maxErrors);
    if (!hit) continue;
    let rawStart = toRaw[hit.start];
    let rawEnd = toRaw[hit.end - 1] + 1;
    // Include the phrase's own leading/trailing punctuation ("(Seller)", "(address): $") when present.
    const lead = /^[^a-z0-9$]*/i.exec(phrase.trim())![0].replace(/\s/g, '');
    for (let n = lead.length; n > 0 && rawStart > 0 && lead.includes(page.raw[rawStart - 1]); n--) rawStart--;
    const trail = /[^a-z0-9$]*$/i.exec(phrase.trim())![0].replace(/\s/g, '');
    for (let n = trail.length; n > 0 && rawEnd < page.raw.length; n--) {
      let r = rawEnd;
      while (r < page.raw.length && page.raw[r] === ' ') r++;
      if (!trail.includes(page.raw[r])) break;
      rawEnd = r + 1;
    }
    return matchFromRaw(page, rawStart, rawEnd, hit.distance);
  }
  return null;
}

/** A {@link Match} for the raw character range [rawStart, rawEnd) of a page (distance 0). */
export function matchAt(doc: DocText, page: number, rawStart: number, rawEnd: number): Match {
  return matchFromRaw(doc.pages.get(page)!, rawStart, rawEnd, 0);
}

/** A {@link Match} for the raw character range [rawStart, rawEnd) of a page. */
function matchFromRaw(page: PageText, rawStart: number, rawEnd: number, distance: number): Match {
  const owners = new Set<number>();
  for (let r = rawStart; r < rawEnd; r++) if (page.rawOwner[r] >= 0) owners.add(page.rawOwner[r]);
  const idx = [...owners].sort((a, b) => a - b);
  return {
    page: page.page,
    start: idx[0],
    end: idx[idx.length - 1],
    tokens: idx.map((i) => page.tokens[i]),
    rawStart,
    rawEnd,
    distance,
  };
}

/** Every non-overlapping occurrence of a phrase, in page/reading order. */
export function findAllPhrases(doc: DocText, phrase: string, opts: Omit<FindOptions, 'after'> = {}): Match[] {
  const out: Match[] = [];
  const pages = opts.page !== undefined ? [opts.page] : [...doc.pages.keys()];
  for (const page of pages) {
    let after: Match | undefined;
    for (;;) {
      const m = findPhrase(doc, phrase, { ...opts, page, after });
      if (!m) break;
      out.push(m);
      after = m;
    }
  }
  return out;
}

/** The box covering a match's tokens. */
export const matchBox = (m: Match): Box => unionBox(m.tokens.map((t) => t.box));

/** Leading/trailing punctuation and spaces trimmed from a value read between labels. */
export const trimValue = (text: string): string =>
  collapseSpaces(text).replace(/^[\s,.;:_)]+/, '').replace(/[\s,;:_(]+$/, '').replace(/(?<![A-Z][a-z]?|\d)\.$/, '');

/**
 * The text of a page's raw range [from, to), keeping only characters of tokens inside `region`, with the
 * tokens it came from. Text is space-collapsed and trimmed of edge punctuation ({@link trimValue}).
 */
export function spanOf(doc: DocText, page: number, from: number, to: number, region?: Region): Span {
  const p = doc.pages.get(page);
  if (!p || to <= from) return { page, text: '', tokens: [] };
  let text = '';
  const owners = new Set<number>();
  for (let r = from; r < to; r++) {
    const o = p.rawOwner[r];
    if (o >= 0 && region && !inRegion(p.tokens[o].box, region)) {
      text += ' ';
      continue;
    }
    text += p.raw[r] === '\n' ? ' ' : p.raw[r];
    if (o >= 0 && /\S/.test(p.raw[r])) owners.add(o);
  }
  const trimmed = trimValue(text);
  return { page, text: trimmed, tokens: trimmed ? [...owners].sort((a, b) => a - b).map((i) => p.tokens[i]) : [] };
}

/** The text strictly between two matches on the same page (reading order), optionally limited to a region. */
export function textBetween(doc: DocText, a: Match, b: Match, region?: Region): Span {
  if (a.page !== b.page) return { page: a.page, text: '', tokens: [] };
  return spanOf(doc, a.page, a.rawEnd, b.rawStart, region);
}

/** Options of {@link valueAfter}. */
export interface ValueAfterOptions {
  /** Stop before this label (searched after the anchor on the same page). */
  until?: string;
  /** Rows to read after the anchor's last row when its own row has nothing (default 1; 0 = same row only). */
  nextRows?: number;
  /** Keep only tokens in this region. */
  region?: Region;
}

/**
 * The value after a label: the rest of the label's row (to its right), or when that is empty the following
 * row(s), up to an optional stop label. Returns an empty span when nothing is written there.
 */
export function valueAfter(doc: DocText, anchor: Match, opts: ValueAfterOptions = {}): Span {
  const page = doc.pages.get(anchor.page)!;
  const stop = opts.until ? findPhrase(doc, opts.until, { page: anchor.page, after: anchor }) : null;
  const limit = stop ? stop.rawStart : page.raw.length;
  const anchorRow = page.rowOf[anchor.end];
  let from = anchor.rawEnd;
  for (let row = anchorRow; row <= anchorRow + (opts.nextRows ?? 1) && row < page.rows.length; row++) {
    const to = Math.min(page.rowRaw[row][1], limit);
    const span = spanOf(doc, anchor.page, from, to, opts.region);
    if (span.text || to >= limit) return span;
    from = page.rowRaw[row + 1]?.[0] ?? to;
  }
  return { page: anchor.page, text: '', tokens: [] };
}

/**
 * Tokens written just above a label (forms that print the caption under the blank, like TREC's Broker
 * Information page): rows whose center lies within `maxGap` above the label's top, horizontally within
 * [`left`, `right`) (default: from the label's left edge to the page's right edge).
 */
export function valueAbove(
  doc: DocText,
  anchor: Match,
  opts: { maxGap?: number; left?: number; right?: number } = {},
): Token[] {
  const page = doc.pages.get(anchor.page)!;
  const box = matchBox(anchor);
  const maxGap = opts.maxGap ?? 0.03;
  const left = opts.left ?? box.left - 0.01;
  const right = opts.right ?? 1;
  const candidates = page.tokens.filter((t) => {
    const cy = t.box.top + t.box.height / 2;
    const cx = t.box.left + t.box.width / 2;
    return cy < box.top && cy >= box.top - maxGap && cx >= left && cx < right;
  });
  if (candidates.length === 0) return [];
  // Keep the row nearest the label only.
  const nearest = Math.max(...candidates.map((t) => page.rowOf[page.tokens.indexOf(t)]));
  return candidates.filter((t) => page.rowOf[page.tokens.indexOf(t)] === nearest);
}

/** The text of tokens, joined by single spaces. */
export const joinTokens = (tokens: Token[]): string => collapseSpaces(tokens.map((t) => t.text).join(' '));

/** Lowest token confidence on Textract's 0–100 scale (0 for no tokens). */
export const minConfidence = (tokens: Token[]): number =>
  tokens.length ? Math.min(...tokens.map((t) => t.confidence)) : 0;

/**
 * A citation (1-based page, text, normalized box in lowercase keys) from a block, a token, or several
 * tokens of one page (their union box and joined text).
 */
export function citationOf(source: Block | Token | Token[]): Citation {
  if (Array.isArray(source)) {
    return { page: source[0]?.page ?? 1, text: joinTokens(source), boundingBox: roundBox(unionBox(source.map((t) => t.box))) };
  }
  if ('BlockType' in source || 'Geometry' in source) {
    const b = source as Block;
    return { page: b.Page ?? 1, text: b.Text ?? '', boundingBox: roundBox(boxOf(b)) };
  }
  const t = source as Token;
  return { page: t.page, text: t.text, boundingBox: roundBox(t.box) };
}

/** A box with its numbers rounded to 6 decimals (sub-micron on a page; keeps results readable). */
export const roundBox = (b: Box): Box => {
  const r = (n: number) => Math.round(n * 1e6) / 1e6;
  return { left: r(b.left), top: r(b.top), width: r(b.width), height: r(b.height) };
};

/** The full text of a page in reading order, rows separated by newlines (for whole-text searches). */
export function pageString(doc: DocText, page: number): string {
  const p = doc.pages.get(page);
  if (!p) return '';
  return p.rows.map((r) => r.tokens.map((t) => t.text).join(' ')).join('\n');
}

/** State of a printed checkbox as read from OCR text. */
export type CheckState = 'checked' | 'unchecked';

/**
 * Characters a check mark comes out as: ZapfDingbats "4" in a PDF text layer; ✓/✔/☒/X glyphs; and what
 * tesseract makes of a ✔ drawn over a printed box — observed on the TREC fixtures: "8", "9", "2", "4", "Y",
 * "YA", "A", "W", "M", "MM", "V", "&", "[%]". An empty box comes out as "q" (the Wingdings box in the text
 * layer) or, from tesseract, "0", "O", "OQ", "Q", "[", "[OQ", "a", "@", "J", "=", "3", "[w]": none of those
 * characters is in this set, so anything else in the box area reads as an empty box.
 */
const CHECK_GLYPHS = /[2489✔✓✗✘☒☑■▪√xXYVWMA&%]/;

/**
 * Reads the checkbox printed just left of a label (TREC prints "q" boxes before each option). Looks at
 * the glyphs whose center lies within `width` (normalized, default 0.045) left of the label's first
 * character on the label's row, plus any glyphs glued to the label's first token. Textract-style
 * SELECTION_ELEMENT blocks in that area, when a source emits them, decide instead. With `after` (the label
 * of the option printed before this one on the same row), only the characters between that label and this
 * one count, so a check glued to the previous option's word ("Wis is not") is not read twice.
 *
 * Returns `checked` for a check glyph ({@link CHECK_GLYPHS}), otherwise `unchecked` (an empty box or nothing).
 */
export function checkboxLeftOf(
  doc: DocText,
  label: Match,
  selections: { page: number; box: Box; selected: boolean }[] = [],
  width = 0.045,
  after?: Match,
): { state: CheckState; tokens: Token[] } {
  const page = doc.pages.get(label.page)!;
  const first = label.tokens[0];
  // Left edge of the label's first matched character (the token may carry glued glyphs before it).
  const tokenStart = page.rawOwner.indexOf(label.start);
  const prefix = page.raw.slice(tokenStart, label.rawStart);
  const labelLeft = first.box.left + (first.box.width * prefix.length) / Math.max(1, first.text.length);
  const rowTop = first.box.top;
  const rowBottom = first.box.top + first.box.height;
  const area: Box = { left: labelLeft - width, top: rowTop, width, height: rowBottom - rowTop };
  const sel = selections.find(
    (s) =>
      s.page === label.page &&
      s.box.left + s.box.width / 2 >= area.left &&
      s.box.left + s.box.width / 2 < labelLeft &&
      Math.min(s.box.top + s.box.height, rowBottom + 0.005) - Math.max(s.box.top, rowTop - 0.005) > 0,
  );
  if (sel) return { state: sel.selected ? 'checked' : 'unchecked', tokens: [] };
  const near = page.tokens.filter((t, i) => {
    if (i >= label.start) return false;
    const cx = t.box.left + t.box.width / 2;
    const overlap = Math.min(t.box.top + t.box.height, rowBottom) - Math.max(t.box.top, rowTop);
    return cx >= area.left && cx < labelLeft && overlap > 0.3 * Math.min(t.box.height, rowBottom - rowTop);
  });
  let raw = near.map((t) => t.text).join('') + prefix;
  if (after && after.page === label.page && after.rawEnd <= label.rawStart) {
    raw = '';
    for (let r = after.rawEnd; r < label.rawStart; r++) {
      const o = page.rawOwner[r];
      if (o >= 0 && page.tokens[o].box.left + page.tokens[o].box.width > area.left) raw += page.raw[r];
    }
  }
  const glyphs = raw.replace(/[\s,.;:'"`’\-–]/g, '');
  return { state: CHECK_GLYPHS.test(glyphs) ? 'checked' : 'unchecked', tokens: near };
}

/**
 * Reads a checkbox at a known place: the glyphs whose estimated character centers fall inside `area`
 * (a token only partly inside contributes the characters inside, by equal character widths — OCR glues a
 * box to its label: "YAThird"), on tokens whose vertical center lies inside it. A SELECTION_ELEMENT centered
 * in the area decides instead. Classification as in {@link checkboxLeftOf}.
 */
export function checkboxInArea(
  doc: DocText,
  page: number,
  area: Required<Region>,
  selections: { page: number; box: Box; selected: boolean }[] = [],
): { state: CheckState; tokens: Token[] } {
  const sel = selections.find((s) => s.page === page && inRegion(s.box, area));
  if (sel) return { state: sel.selected ? 'checked' : 'unchecked', tokens: [] };
  const p = doc.pages.get(page);
  if (!p) return { state: 'unchecked', tokens: [] };
  let glyphs = '';
  const tokens: Token[] = [];
  for (const t of p.tokens) {
    const cy = t.box.top + t.box.height / 2;
    if (cy < area.top || cy > area.bottom) continue;
    if (t.box.left >= area.right || t.box.left + t.box.width <= area.left) continue;
    const chars = [...t.text];
    const w = t.box.width / Math.max(1, chars.length);
    let inside = '';
    chars.forEach((ch, i) => {
      const cx = t.box.left + w * (i + 0.5);
      if (cx >= area.left && cx < area.right) inside += ch;
    });
    if (inside) {
      glyphs += inside;
      tokens.push(t);
    }
  }
  glyphs = glyphs.replace(/[\s,.;:'"`’\-–]/g, '');
  return { state: CHECK_GLYPHS.test(glyphs) ? 'checked' : 'unchecked', tokens };
}

/** Textract SELECTION_ELEMENT blocks as simple boxes (empty for sources that emit none). */
export function selectionElements(blocks: Block[]): { page: number; box: Box; selected: boolean }[] {
  return blocks
    .filter((b) => b.BlockType === 'SELECTION_ELEMENT')
    .map((b) => ({ page: b.Page ?? 1, box: boxOf(b), selected: b.SelectionStatus === 'SELECTED' }));
}
