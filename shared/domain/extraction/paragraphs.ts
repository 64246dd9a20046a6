/**
 * Values that stand inside a numbered paragraph of an association form ("3. PURCHASE PRICE: … the Purchase
 * Price shall be the exact sum of" with the amount typed at the right margin above a "$ ______" blank two lines
 * down; "22. CLOSING: … on or before (month) ____ (day) ____ (year) ____"; "✖ A. NEW FINANCING"). The heading is
 * found, but no value is next to it: each value is read within its paragraph, and only there.
 *
 * A paragraph runs from its heading row ("N. HEADING:", capitals) to the next numbered heading on the page (or
 * the page's end); rows up to a line above a row belong to it, since values are typed above their blanks.
 * - price (`salesPriceTotal`) and earnest money: the one dollar amount written in the paragraph; two different
 *   amounts are a conflict (nothing read);
 * - the financing type: the checked option of the price paragraph (plausible.ts `checkedFinancing`);
 * - the parties: each name typed above a blank, given the role of the first quoted or parenthesized caption
 *   after that blank ('… namely ____ ("Buyer")');
 * - the closing date: the values typed above the blanks after the "(month)", "(day)" and "(year)" captions.
 */
import { approxFind, normalizeKey, type DocText, type Span, type Token } from '#domain/extraction/lines';
import { checkedFinancing, plausibleMoney, plausibleNames } from '#domain/extraction/plausible';
import { readDate } from '#domain/extraction/dates';
import type { ContractFieldName } from '#domain/extraction/types';

/** What a numbered paragraph holds, by its heading. */
export type ParagraphKind = 'parties' | 'price' | 'earnest' | 'closing';

/** Heading words of each kind (compared as normalized keys, OCR-tolerantly: "PURCHASE PRICBuyer"). */
const HEADINGS: [string, ParagraphKind][] = [
  ['PARTIES', 'parties'],
  ['BUYER AND SELLER', 'parties'],
  ['PURCHASE PRICE', 'price'],
  ['SALES PRICE', 'price'],
  ['SALE PRICE', 'price'],
  ['EARNEST MONEY', 'earnest'],
  ['CLOSING', 'closing'],
  ['SETTLEMENT', 'closing'],
];

/** One numbered paragraph of a page: its number, heading, kind (when known) and vertical extent (0–1). */
export interface Paragraph {
  page: number;
  number: number;
  heading: string;
  kind?: ParagraphKind;
  top: number;
  bottom: number;
}

/** A value read in a paragraph, with the words it came from. */
export interface ParagraphValue {
  field: ContractFieldName;
  value: unknown;
  span: Span;
}

const cy = (t: { box: { top: number; height: number } }) => t.box.top + t.box.height / 2;
/** "3." (or OCR's "3," / "3") then a word in capitals: a numbered paragraph's heading row. */
const HEADING_NUMBER = /^(\d{1,2})[.,]?$/;
const HEADING_GLUED = /^(\d{1,2})\.([A-Z]{3,}.*)$/;

/** The kind of a heading's text: a known heading's key at its start, within one error per six letters. */
function kindOf(text: string): ParagraphKind | undefined {
  const key = normalizeKey(text);
  for (const [words, kind] of HEADINGS) {
    const want = normalizeKey(words);
    const hit = approxFind(key.slice(0, want.length + 2), want, Math.floor(want.length / 6));
    if (hit && hit.start <= 1) return kind;
  }
  return undefined;
}

/** The numbered paragraphs of every page, top to bottom. */
export function findParagraphs(doc: DocText): Paragraph[] {
  const out: Paragraph[] = [];
  for (const [pageNum, page] of doc.pages) {
    const heads: { r: (typeof page.rows)[number]; number: number; rest: string }[] = [];
    for (const r of page.rows) {
      if (r.box.left >= 0.3 || !r.tokens.length) continue;
      const [first, second] = r.tokens;
      const glued = HEADING_GLUED.exec(first.text);
      const num = HEADING_NUMBER.exec(first.text);
      const rest = glued ? [glued[2], ...r.tokens.slice(1).map((t) => t.text)].join(' ') : r.tokens.slice(1).map((t) => t.text).join(' ');
      if (glued || (num && second && /^[A-Z]{3,}/.test(second.text))) heads.push({ r, number: Number((glued ?? num)![1]), rest });
    }
    heads.forEach(({ r, number, rest }, i) => {
      const h = Math.max(0.006, ...r.tokens.map((t) => t.box.height));
      const next = heads[i + 1];
      const nextH = next ? Math.max(0.006, ...next.r.tokens.map((t) => t.box.height)) : 0;
      const heading = (/^[A-Z][A-Z &'’/-]*[A-Z]/.exec(rest)?.[0] ?? rest.split(' ')[0]).trim();
      out.push({
        page: pageNum,
        number,
        heading,
        kind: kindOf(rest),
        top: r.box.top - 1.3 * h,
        bottom: next ? next.r.box.top - 1.3 * nextH : 1,
      });
    });
  }
  return out;
}

/** The tokens of a paragraph in reading order, with their row index. */
function tokensOf(doc: DocText, p: Paragraph): { t: Token; row: number }[] {
  const page = doc.pages.get(p.page)!;
  return page.tokens.map((t, i) => ({ t, row: page.rowOf[i] })).filter(({ t }) => cy(t) >= p.top && cy(t) < p.bottom);
}

/**
 * The paragraph's tokens as visual lines by vertical center (not the page's rows: a value typed a few points
 * above its blank often shares a row with the printed text beside it), top to bottom, each left to right.
 */
function rowsOf(tokens: { t: Token; row: number }[]): Token[][] {
  const sorted = tokens.map(({ t }) => t).sort((a, b) => cy(a) - cy(b));
  const lines: Token[][] = [];
  for (const t of sorted) {
    const last = lines[lines.length - 1];
    if (last && Math.abs(cy(t) - cy(last[0])) < 0.3 * Math.min(t.box.height, last[0].box.height)) last.push(t);
    else lines.push([t]);
  }
  return lines.map((l) => l.sort((a, b) => a.box.left - b.box.left));
}

const spanOfTokens = (page: number, tokens: Token[]): Span => ({ page, text: tokens.map((t) => t.text).join(' '), tokens });

/** The one amount in a paragraph (within `min`–`max` dollars), or null when none or two differ. */
function paragraphAmount(doc: DocText, p: Paragraph, field: ContractFieldName, min: number, max: number): ParagraphValue[] {
  const found: ParagraphValue[] = [];
  for (const row of rowsOf(tokensOf(doc, p))) {
    for (const t of row) {
      // A bare year ("2025") is not an amount.
      const v = /\d/.test(t.text) && !/^(19|20)\d{2}[,.;]?$/.test(t.text) ? plausibleMoney(t.text, min, max) : null;
      if (v === null) continue;
      const prev = row[row.indexOf(t) - 1];
      const tokens = prev && /^[$S]$/.test(prev.text) ? [prev, t] : [t];
      found.push({ field, value: v, span: spanOfTokens(p.page, tokens) });
    }
  }
  return found;
}

const ROLE_CAPTION = /^\(?["“]?(buyers?|purchasers?|sellers?|owners?)["”]?\)?[,.;:]*$/i;

/** Names typed above blanks, each given the role of the first quoted or parenthesized caption after its blank. */
function paragraphParties(doc: DocText, p: Paragraph): ParagraphValue[] {
  const lines = rowsOf(tokensOf(doc, p));
  const out: ParagraphValue[] = [];
  lines.forEach((row, i) => {
    // A typed value: a line of its own, indented away from the printed text's margin.
    if (row[0].box.left < 0.33) return;
    const names = plausibleNames(row.map((t) => t.text).join(' '));
    if (!names) return;
    const h = Math.max(...row.map((t) => t.box.height));
    const left = row[0].box.left;
    const blank = lines.findIndex((l, j) => j > i && cy(l[0]) > cy(row[0]) + 0.3 * h && cy(l[0]) < cy(row[0]) + 2 * h);
    if (blank < 0) return;
    const after = [...lines[blank].filter((t) => t.box.left >= left - 0.02), ...lines.slice(blank + 1).flat()];
    const caption = after.find((t) => ROLE_CAPTION.test(t.text) && /[("“]/.test(t.text));
    if (!caption) return;
    const role = caption.text.replace(/[^A-Za-z]/g, '').toLowerCase();
    out.push({ field: /^(buyer|purchaser)/.test(role) ? 'buyers' : 'sellers', value: names, span: spanOfTokens(p.page, row) });
  });
  return out;
}

/** A date split over "(month) ____ (day) ____ (year) ____" blanks, each value typed above its blank. */
function paragraphSplitDate(doc: DocText, p: Paragraph, field: ContractFieldName): ParagraphValue[] {
  const all = tokensOf(doc, p).map(({ t }) => t);
  // The printed caption is parenthesized ("(day)"; OCR may lose one parenthesis), unlike "the closing day."
  const caption = (word: string) => all.find((t) => new RegExp(`^(\\(${word}\\)?|${word}\\))[,.]*$`, 'i').test(t.text));
  const parts = [caption('month'), caption('day'), caption('year')];
  if (parts.some((c) => !c)) return [];
  const [m, d, y] = parts as Token[];
  const valueOver = (c: Token, right: number): Token[] => {
    const h = c.box.height;
    const over = all.filter((t) => {
      const x = t.box.left + t.box.width / 2;
      const dy = cy(c) - cy(t);
      return t !== c && x > c.box.left + c.box.width && x < right && dy > 0.3 * h && dy < 1.6 * h && !/^[_]+$/.test(t.text);
    });
    // Only the nearest line above: the printed row above the blank is not the value.
    const nearest = Math.max(...over.map(cy));
    return over.filter((t) => nearest - cy(t) < 0.5 * h);
  };
  const mt = valueOver(m, d.box.left);
  const dt = valueOver(d, y.box.left);
  const yt = valueOver(y, y.box.left + y.box.width + 0.2);
  if (!mt.length || !dt.length || !yt.length) return [];
  const [ms, ds, ys] = [mt, dt, yt].map((ts) => ts.map((t) => t.text).join(' '));
  const text = /^\d/.test(ms) ? `${ms}/${ds}/${ys}` : `${ms} ${ds}, ${ys}`;
  const r = readDate(text);
  return r.value ? [{ field, value: r.value, span: spanOfTokens(p.page, [...mt, ...dt, ...yt]) }] : [];
}

/** The financing type of the price paragraph's checked option. */
function paragraphFinancing(doc: DocText, p: Paragraph): ParagraphValue[] {
  const tokens = tokensOf(doc, p).map(({ t }) => t);
  const v = checkedFinancing(tokens.map((t) => t.text).join(' '));
  if (!v) return [];
  const letter = (i: number) => /^\(?[A-Za-z0-9]{1,2}[.)]$/.test(tokens[i + 1]?.text ?? '');
  const mark = tokens.find((t, i) => letter(i) && /^([[(]?[xX✖✕✗✘☒☑■▪●✔✓][\])]?|[468n])$/.test(t.text));
  return [{ field: 'financingType', value: v, span: spanOfTokens(p.page, mark ? [mark, ...tokens.slice(tokens.indexOf(mark) + 1, tokens.indexOf(mark) + 4)] : tokens.slice(0, 1)) }];
}

/** Fields each paragraph kind holds. */
export const PARAGRAPH_FIELDS: Record<ParagraphKind, ContractFieldName[]> = {
  parties: ['buyers', 'sellers'],
  price: ['salesPriceTotal', 'financingType'],
  earnest: ['earnestMoney'],
  closing: ['closingDate'],
};

/** Every value read in the document's known numbered paragraphs, with the paragraph it was read in. */
export function readParagraphs(doc: DocText): { paragraph: Paragraph; values: ParagraphValue[] }[] {
  return findParagraphs(doc)
    .filter((p) => p.kind)
    .map((p) => {
      switch (p.kind!) {
        case 'parties':
          return { paragraph: p, values: paragraphParties(doc, p) };
        case 'price':
          return { paragraph: p, values: [...paragraphAmount(doc, p, 'salesPriceTotal', 10_000, 100_000_000), ...paragraphFinancing(doc, p)] };
        case 'earnest':
          return { paragraph: p, values: paragraphAmount(doc, p, 'earnestMoney', 100, 10_000_000) };
        case 'closing':
          return { paragraph: p, values: paragraphSplitDate(doc, p, 'closingDate') };
      }
    });
}

/** True when a span lies in the paragraph (same page, every word's center inside its rows). */
export const inParagraph = (p: Paragraph, span: Span): boolean => span.page === p.page && span.tokens.every((t) => cy(t) >= p.top && cy(t) < p.bottom);
