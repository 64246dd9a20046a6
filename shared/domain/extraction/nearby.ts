/**
 * Where a filled-in value sits relative to its printed label, read from geometry (normalized boxes, top-left
 * origin): on the label's own row (after it, or before a caption such as "(Buyer)"), or on the row just above
 * or below the label within a horizontal span — real forms put typed values above the underline, split
 * across the line, or print the caption under the blank.
 *
 * Every reader returns a {@link Span} (text + tokens for confidence and citations); an empty span means
 * nothing is written there. Blank markers (runs of "_", ".", "-") are never part of a value.
 */
import { inRegion, spanOf, trimValue, type DocText, type Match, type Span, type Token } from '#domain/extraction/lines';

/** A horizontal interval of the page, normalized 0–1. */
export interface HSpan {
  left: number;
  right: number;
}

const EMPTY = (page: number): Span => ({ page, text: '', tokens: [] });

/** True for a token that only marks a blank: "____", "......", "–––". */
export const isBlankMarker = (t: Token): boolean => /^[_.\-–—]+$/.test(t.text);

/** Line height of a match (the tallest of its tokens, at least 0.006 of the page). */
export const lineHeightOf = (m: Match): number => Math.max(0.006, ...m.tokens.map((t) => t.box.height));

const spanFromTokens = (page: number, tokens: Token[]): Span => {
  const kept = tokens.filter((t) => !isBlankMarker(t));
  const text = trimValue(kept.map((t) => t.text).join(' ').replace(/_+/g, ' '));
  return text ? { page, text, tokens: kept } : EMPTY(page);
};

/**
 * The rest of the label's row after it: from the label's end to the first of `stops` that starts later on
 * the same row, or the row's end; cut at a horizontal gap wider than `maxGap` line heights between two of the
 * value's words (another column; the gap before the value is its blank).
 * Text glued to the label's last token ("Price:$450,000") is included.
 */
export function afterOnRow(doc: DocText, m: Match, stops: readonly Match[] = [], maxGap = 4): Span {
  const page = doc.pages.get(m.page)!;
  const row = page.rowOf[m.end];
  const [, rowEnd] = page.rowRaw[row];
  const stop = stops
    .filter((s) => s.page === m.page && s.rawStart >= m.rawEnd && page.rowOf[s.start] === row)
    .reduce((min, s) => Math.min(min, s.rawStart), rowEnd);
  // Cut at the first wide gap inside the value (the gap between the label and the value's start is the blank).
  const h = lineHeightOf(m);
  let right = 1;
  let prevRight: number | undefined;
  for (let i = m.end + 1; i < page.tokens.length && page.rowOf[i] === row; i++) {
    const t = page.tokens[i];
    if (isBlankMarker(t)) continue;
    if (prevRight !== undefined && t.box.left - prevRight > maxGap * h) {
      right = t.box.left - 0.0005;
      break;
    }
    prevRight = t.box.left + t.box.width;
  }
  // The caption's own colon is not part of the value.
  const colon = /^\s?:/.exec(page.raw.slice(m.rawEnd, m.rawEnd + 2));
  return withoutMarkers(spanOf(doc, m.page, m.rawEnd + (colon ? colon[0].length : 0), stop, { right }));
}

/** A span with its blank markers dropped (text and tokens); empty when nothing else is left. */
function withoutMarkers(span: Span): Span {
  const tokens = span.tokens.filter((t) => !isBlankMarker(t));
  const text = trimValue(span.text.replace(/_+/g, ' '));
  return tokens.length && text ? { ...span, text, tokens } : EMPTY(span.page);
}

/**
 * The part of the label's row before it, back to the end of the nearest earlier stop on that row (or the row's
 * start), cut at a wide gap. For captions printed after their blank: "John Doe (Buyer)".
 */
export function beforeOnRow(doc: DocText, m: Match, stops: readonly Match[] = [], maxGap = 4): Span {
  const page = doc.pages.get(m.page)!;
  const row = page.rowOf[m.start];
  const [rowStart] = page.rowRaw[row];
  const from = stops
    .filter((s) => s.page === m.page && s.rawEnd <= m.rawStart && page.rowOf[s.end] === row)
    .reduce((max, s) => Math.max(max, s.rawEnd), rowStart);
  const h = lineHeightOf(m);
  let left = 0;
  let prevLeft: number | undefined;
  for (let i = m.start - 1; i >= 0 && page.rowOf[i] === row; i--) {
    const t = page.tokens[i];
    if (isBlankMarker(t)) continue;
    if (prevLeft !== undefined && prevLeft - (t.box.left + t.box.width) > maxGap * h) {
      left = t.box.left + t.box.width + 0.0005;
      break;
    }
    prevLeft = t.box.left;
  }
  return withoutMarkers(spanOf(doc, m.page, from, m.rawStart, { left }));
}

/**
 * What is written on the nearest row above (or below) the label's row, within `span`: the tokens of that row
 * whose centers lie in the span, taken only when they stand alone there — no token of the same row touches
 * them from outside the span (a printed sentence running through the span is not a value). Rows farther than
 * `maxLines` line heights (center to center) are not looked at.
 */
export function rowNear(doc: DocText, m: Match, dir: 'above' | 'below', span: HSpan, maxLines = 1.8): Span {
  const page = doc.pages.get(m.page)!;
  const h = lineHeightOf(m);
  const labelRow = page.rows[page.rowOf[m.start]];
  const cy = (t: { box: { top: number; height: number } }) => t.box.top + t.box.height / 2;
  const labelCy = m.tokens.reduce((s, t) => s + cy(t), 0) / m.tokens.length;
  const inSpan = (t: Token) => inRegion(t.box, { left: span.left, right: span.right });
  // Candidate rows: other rows with a token in the span, in the direction asked, nearest first.
  const rows = page.rows
    .map((r, i) => ({ r, i, d: dir === 'above' ? labelCy - cy(r.tokens.find(inSpan) ?? r.tokens[0]) : cy(r.tokens.find(inSpan) ?? r.tokens[0]) - labelCy }))
    .filter(({ r, d }) => r !== labelRow && d > 0.25 * h && d <= maxLines * h && r.tokens.some((t) => inSpan(t) && !isBlankMarker(t)))
    .sort((a, b) => a.d - b.d);
  const nearest = rows[0];
  if (!nearest) return EMPTY(m.page);
  const tokens = nearest.r.tokens.filter((t) => inSpan(t) && !isBlankMarker(t));
  // Isolation: a token of this row just outside the span, touching the cluster, means running text.
  const left = Math.min(...tokens.map((t) => t.box.left));
  const right = Math.max(...tokens.map((t) => t.box.left + t.box.width));
  const touching = nearest.r.tokens.some(
    (t) => !tokens.includes(t) && !isBlankMarker(t) && (Math.abs(t.box.left + t.box.width - left) < 1.5 * h || Math.abs(t.box.left - right) < 1.5 * h),
  );
  if (touching) return EMPTY(m.page);
  return spanFromTokens(m.page, tokens);
}
