/**
 * The layout-aware reader for residential purchase contracts the extractor does not recognize (other states'
 * and associations' forms, attorney-drafted agreements). Precision comes first: on an unknown form a wrong
 * value is worse than a missing one, so a field is reported only when its value looks right for the field
 * (plausible.ts) and every place the document states it agrees; otherwise it is left empty with a warning
 * saying why. Confidence comes from the evidence (label match, where the value sat, agreement between the
 * places that state it; confidence.ts weighs the rest), and a generic result is always reviewed (extract.ts).
 *
 * How a value is found for a label (see {@link GENERIC_LABELS}; labels matched OCR-tolerantly, lines.ts):
 * 1. on the label's row after it ("Closing Date: 08/29/2025"), up to the next label or a column gap;
 * 2. when the label is a caption (followed by ":" or a blank, or alone on its row), on the row just above or
 *    below within the label's span — typed values sit above the underline, captions under the blank;
 * 3. for captions printed after the blank ("Ann Lee (Buyer)"), on the row before the caption or just above it.
 * Platform stamps are already gone from the text model (stamps.ts).
 *
 * Mapping to ContractFields: an inspection / due-diligence period's days go to `optionPeriodDays` (its
 * InspectionDeadline role); a financing contingency period goes to `financingDeadlineDays`; the state comes
 * from the address line only (no default).
 */
import type { Block, ContractFieldName, ContractFields, ExtractedField } from '#domain/extraction/types';
import { buildDocText, findAllPhrases, matchBox, type DocText, type Match, type Span } from '#domain/extraction/lines';
import { afterOnRow, beforeOnRow, lineHeightOf, rowNear, type HSpan } from '#domain/extraction/nearby';
import { emptyFields, found, missing } from '#domain/extraction/fields';
import { nameKey } from '#domain/extraction/normalize';
import { inParagraph, PARAGRAPH_FIELDS, readParagraphs } from '#domain/extraction/paragraphs';
import {
  plausibleAddress,
  plausibleCompany,
  plausibleCounty,
  plausibleDate,
  plausibleDays,
  plausibleMoney,
  plausibleNames,
  checkedFinancing,
} from '#domain/extraction/plausible';
import type { FormTerms } from '#domain/extraction/key-dates';

/** How a label's value is parsed and checked. */
export type GenericKind = 'names' | 'person' | 'legal' | 'price' | 'amount' | 'date' | 'company' | 'address' | 'days' | 'county' | 'financing';

/** A field the generic reader fills ('address' fills street, city, state and zip). */
export type GenericField = ContractFieldName | 'address';

/** One label family: the field, how to read it, its phrases, and where the value sits. */
export interface GenericLabel {
  field: GenericField;
  kind: GenericKind;
  /** Phrases, most specific first. */
  phrases: string[];
  /** The caption is printed after (or under) its blank: "John Doe (Buyer)". */
  captionAfter?: boolean;
  /** Specific enough to read a value after it even in running text ("closing will be on or before"). */
  inline?: boolean;
}

/** Every label the generic reader knows. */
export const GENERIC_LABELS: readonly GenericLabel[] = [
  { field: 'address', kind: 'address', phrases: ['Property Address', 'Address of Property', 'Premises Address', 'Street Address', 'commonly known as', 'known as'], inline: true },
  { field: 'county', kind: 'county', phrases: ['County'] },
  { field: 'legalDescription', kind: 'legal', phrases: ['Legal Description'] },
  { field: 'buyers', kind: 'names', phrases: ['Buyer(s)', 'Buyers', 'Buyer Name(s)', "Buyer's Name", 'Buyer’s Name', 'Purchaser(s)', 'Purchasers', 'Buyer', 'Purchaser'] },
  { field: 'buyers', kind: 'names', phrases: ['(Buyer)', '(Buyers)', '(Purchaser)', '(Purchasers)'], captionAfter: true },
  { field: 'sellers', kind: 'names', phrases: ['Seller(s)', 'Sellers', 'Seller Name(s)', "Seller's Name", 'Seller’s Name', 'Seller'] },
  { field: 'sellers', kind: 'names', phrases: ['(Seller)', '(Sellers)'], captionAfter: true },
  { field: 'salesPriceTotal', kind: 'price', phrases: ['Total Purchase Price', 'Purchase Price', 'Sales Price', 'Sale Price', 'Contract Price'], inline: true },
  { field: 'salesPriceFinanced', kind: 'price', phrases: ['Loan Amount', 'Financed Amount', 'Amount Financed'], inline: true },
  { field: 'financingType', kind: 'financing', phrases: ['Type of Financing', 'Financing Type', 'Financing'] },
  { field: 'earnestMoney', kind: 'amount', phrases: ['Earnest Money Deposit', 'Earnest Money', 'Initial Deposit', 'Escrow Deposit', 'Deposit'], inline: true },
  {
    field: 'escrowAgent',
    kind: 'company',
    phrases: ['Escrow Agent/Title Company', 'Escrow/Title Company', 'Escrow Agent', 'Title Company', 'Escrow Holder', 'Closing Agent', 'Settlement Agent', 'Closing Attorney', 'Escrow Company'],
  },
  { field: 'optionPeriodDays', kind: 'days', phrases: ['Inspection Period', 'Due Diligence Period', 'Inspection Contingency Period', 'Inspection Contingency'] },
  { field: 'financingDeadlineDays', kind: 'days', phrases: ['Financing Contingency Period', 'Financing Contingency', 'Loan Contingency Period', 'Loan Contingency'] },
  { field: 'effectiveDate', kind: 'date', phrases: ['Effective Date', 'Date of Acceptance', 'Acceptance Date', 'Binding Agreement Date'], inline: true },
  {
    field: 'closingDate',
    kind: 'date',
    phrases: ['Closing Date', 'Date of Closing', 'Settlement Date', 'Close of Escrow', 'closing shall occur on or before', 'closing will be on or before', 'closing of the sale will be on or before'],
    inline: true,
  },
  { field: 'buyerAgent', kind: 'person', phrases: ["Buyer's Agent", 'Buyer’s Agent', 'Selling Agent'] },
  { field: 'buyerBrokerage', kind: 'company', phrases: ["Buyer's Brokerage", 'Buyer’s Brokerage', "Buyer's Broker", 'Selling Broker'] },
  { field: 'listingAgent', kind: 'person', phrases: ['Listing Agent', "Seller's Agent", 'Seller’s Agent'] },
  { field: 'listingBrokerage', kind: 'company', phrases: ['Listing Brokerage', 'Listing Broker', "Seller's Broker"] },
];

/** A label found in the document. */
interface Hit {
  label: GenericLabel;
  phrase: string;
  match: Match;
  /** Followed by ":" or a blank, alone on its row, or a parenthesized caption. */
  caption: boolean;
}

/** One value read for a field, with where it came from. */
export interface Candidate {
  value: unknown;
  span: Span;
  /** 0–1: the label's edit distance and where the value sat. */
  certainty: number;
  /** Where it was read: relative to its label, or a Textract query answer (queries.ts). */
  where: 'row' | 'above' | 'below' | 'before' | 'query' | 'paragraph';
}

/**
 * Parses and checks a value for its kind (see plausible.ts): a party list, a price ($10,000–$100,000,000), an
 * amount ($100–$10,000,000), a date, a company, an address, a day count, a county, a financing type (only a
 * checked option, plausible.ts `checkedFinancing`).
 * @returns the value, or null when the text does not hold a plausible one
 */
export function parseGeneric(kind: GenericKind, text: string): unknown {
  switch (kind) {
    case 'names':
      return plausibleNames(text);
    case 'person': {
      const names = plausibleNames(text);
      return names?.length === 1 ? names[0] : null;
    }
    case 'legal':
      return /\b(lot|block|unit|tract|parcel|subdivision|addition|section)\b/i.test(text) && text.length <= 300 ? text.replace(/\s+/g, ' ').trim() : null;
    case 'price':
      return plausibleMoney(text, 10_000, 100_000_000);
    case 'amount':
      return plausibleMoney(text, 100, 10_000_000);
    case 'date':
      return plausibleDate(text);
    case 'company':
      return plausibleCompany(text);
    case 'address':
      return plausibleAddress(text);
    case 'days':
      return /\bdays?\b/i.test(text) || /^\d{1,3}$/.test(text.trim()) ? plausibleDays(text) : null;
    case 'county':
      return plausibleCounty(text);
    case 'financing':
      return checkedFinancing(text);
  }
}

/** A key comparing two values of a kind (names by their letters, others as JSON). */
export const valueKey = (kind: GenericKind, v: unknown): string =>
  kind === 'names' ? (v as string[]).map(nameKey).join('|') : JSON.stringify(v);

/** True when the match starts and ends on word boundaries of the page text. */
function onWordBoundaries(doc: DocText, m: Match): boolean {
  const raw = doc.pages.get(m.page)!.raw;
  return !/[A-Za-z]/.test(raw[m.rawStart - 1] ?? ' ') && !/[A-Za-z]/.test(raw[m.rawEnd] ?? ' ');
}

/** True when the match is a parenthesized caption: "(Buyer)", "(\"Buyer\")", "(“Seller”)". */
function inParentheses(doc: DocText, m: Match): boolean {
  const raw = doc.pages.get(m.page)!.raw;
  const open = raw.slice(Math.max(0, m.rawStart - 2), m.rawStart + 2);
  const close = raw.slice(Math.max(m.rawStart, m.rawEnd - 2), m.rawEnd + 2);
  return /\(["“]?[A-Za-z]/.test(open) && /[A-Za-z]["”]?\)/.test(close);
}

/** Caption test: "(Label)", "Label:", "Label ____", or nothing else on its row within four line heights. */
function isCaption(doc: DocText, m: Match, phrase: string): boolean {
  if (phrase.startsWith('(')) return true;
  const page = doc.pages.get(m.page)!;
  const next = page.raw.slice(m.rawEnd).match(/^\s?([:_])/);
  if (next) return true;
  const row = page.rowOf[m.start];
  const h = lineHeightOf(m);
  const box = matchBox(m);
  const near = page.tokens.filter(
    (t, i) =>
      page.rowOf[i] === row &&
      (i < m.start || i > m.end) &&
      !/^[_.\-–—]+$/.test(t.text) &&
      (Math.abs(t.box.left + t.box.width - box.left) < 4 * h || Math.abs(t.box.left - (box.left + box.width)) < 4 * h),
  );
  return near.length === 0;
}

/** Every label occurrence in the document (word-bounded; longer phrases win where two overlap). */
function findHits(doc: DocText): Hit[] {
  const hits: Hit[] = [];
  for (const label of GENERIC_LABELS) {
    for (const phrase of label.phrases) {
      const errorRate = phrase.replace(/[^A-Za-z]/g, '').length >= 10 ? 1 / 10 : 0;
      for (const m of findAllPhrases(doc, phrase, { errorRate })) {
        if (phrase.startsWith('(') ? !inParentheses(doc, m) : !onWordBoundaries(doc, m)) continue;
        hits.push({ label, phrase, match: m, caption: isCaption(doc, m, phrase) });
      }
    }
  }
  const len = (h: Hit) => h.match.rawEnd - h.match.rawStart;
  const kept = hits.filter(
    (h) => !hits.some((o) => o !== h && o.match.page === h.match.page && o.match.rawStart <= h.match.rawStart && o.match.rawEnd >= h.match.rawEnd && len(o) > len(h)),
  );
  return kept.sort((a, b) => a.match.page - b.match.page || a.match.rawStart - b.match.rawStart);
}

/** Names read before a caption: the trailing run of name-like words ("…contract are Ann Lee" → "Ann Lee"). */
function trailingNames(span: Span): Span {
  const words = span.tokens;
  let start = words.length;
  while (start > 0) {
    const w = words[start - 1].text.replace(/[,;]$/, '');
    if (/^(and|&)$/i.test(w) || /^[A-Z][A-Za-z.'’-]*,?$/.test(words[start - 1].text) || /^(jr|sr|ii|iii|llc|inc)\.?,?$/i.test(w)) start--;
    else break;
  }
  const tokens = words.slice(start);
  while (tokens.length && /^(and|&)$/i.test(tokens[0].text)) tokens.shift();
  return { page: span.page, text: tokens.map((t) => t.text).join(' '), tokens };
}

const certaintyOf = (m: Match): number => Math.max(0.7, 1 - 0.05 * m.distance);
const WHERE_FACTOR = { row: 1, before: 0.95, above: 0.92, below: 0.88, query: 1, paragraph: 1 } as const;

/** Certainty of a value read inside its numbered paragraph (typed above a blank, split blanks, a marked option). */
const PARAGRAPH_CERTAINTY = 0.9;

/** The values one label occurrence offers (valid ones only), nearest place first. */
function candidatesOf(doc: DocText, hit: Hit, stops: Match[]): Candidate[] {
  const { label, match } = hit;
  const out: Candidate[] = [];
  const take = (span: Span, where: Candidate['where']) => {
    if (!span.text) return false;
    const text = label.kind === 'names' && where === 'before' ? trailingNames(span) : span;
    const value = parseGeneric(label.kind, text.text);
    if (value === null) return false;
    out.push({ value, span: text, certainty: certaintyOf(match) * WHERE_FACTOR[where], where });
    return true;
  };
  const box = matchBox(match);
  const page = doc.pages.get(match.page)!;
  const row = page.rowOf[match.start];
  if (label.captionAfter) {
    if (take(beforeOnRow(doc, match, stops), 'before')) return out;
    // The blank runs from the previous caption on the row (or the margin) to this caption.
    const prevOnRow = stops.filter((s) => s.page === match.page && s.rawEnd <= match.rawStart && page.rowOf[s.end] === row).map((s) => matchBox(s));
    const left = prevOnRow.length ? Math.max(...prevOnRow.map((b) => b.left + b.width)) : 0;
    take(rowNear(doc, match, 'above', { left, right: box.left + box.width }, 2.2), 'above');
    return out;
  }
  if ((hit.caption || label.inline) && take(afterOnRow(doc, match, stops), 'row')) return out;
  if (!hit.caption) return out;
  // The blank runs from the label to the next label on its row (or about half a page).
  const nextOnRow = stops.filter((s) => s.page === match.page && s.rawStart >= match.rawEnd && page.rowOf[s.start] === row).map((s) => matchBox(s).left);
  const span: HSpan = { left: box.left - 0.02, right: nextOnRow.length ? Math.min(...nextOnRow) - 0.005 : Math.min(1, box.left + box.width + 0.45) };
  // Both are kept: plausible and different values above and below are a conflict (see `resolve`).
  take(rowNear(doc, match, 'above', span, 2.2), 'above');
  take(rowNear(doc, match, 'below', span), 'below');
  return out;
}

/**
 * Party lists read at signature lines name one party each: a list whose names all appear in a longer list
 * agrees with it (and counts as the longer list).
 */
function widenSubsets(label: GenericLabel, cands: Candidate[]): Candidate[] {
  if (label.kind !== 'names') return cands;
  const keys = (c: Candidate) => (c.value as string[]).map(nameKey);
  return cands.map((c) => {
    const mine = keys(c);
    const wider = cands.filter((o) => o !== c && mine.every((k) => keys(o).includes(k)) && keys(o).length > mine.length);
    const widest = wider.sort((a, b) => keys(b).length - keys(a).length)[0];
    return widest ? { ...c, value: widest.value } : c;
  });
}

/** A field's candidates reduced to one value, or an empty field with the reason. */
function resolve(label: GenericLabel, all: Candidate[]): ExtractedField<unknown> {
  const cands = widenSubsets(label, all);
  const byValue = new Map<string, Candidate[]>();
  for (const c of cands) byValue.set(valueKey(label.kind, c.value), [...(byValue.get(valueKey(label.kind, c.value)) ?? []), c]);
  if (byValue.size > 1) {
    const shown = [...byValue.values()].map((cs) => `'${cs[0].span.text}' (p${cs[0].span.page})`).join(' vs ');
    return missing([`conflicting values: ${shown}; not reported`]);
  }
  const group = [...byValue.values()][0];
  const best = group.reduce((a, b) => (b.certainty > a.certainty ? b : a));
  // Stated once: a little less certain than stated twice alike. Every agreeing place is cited.
  const agreeing = group.length > 1 ? 1 : 0.97;
  const spans = [best, ...group.filter((c) => c !== best)].map((c) => c.span);
  return found(best.value, spans, best.certainty * agreeing);
}

/** Result of {@link readGenericCandidates}: per field, every plausible value and the labels seen without one. */
export interface GenericReading {
  candidates: Map<GenericField, { label: GenericLabel; candidates: Candidate[] }>;
  /** Fields whose label was found (as a caption) with no plausible value next to it: field → "p2 'Closing Date'". */
  unread: Map<GenericField, string[]>;
}

/** Reads every label's candidates (no resolution): for the generic reader and for merging Textract answers. */
export function readGenericCandidates(doc: DocText): GenericReading {
  const hits = findHits(doc);
  const candidates: GenericReading['candidates'] = new Map();
  const unread: GenericReading['unread'] = new Map();
  for (const hit of hits) {
    // A value ends at the next caption, or at another field's label; its own field's words may be inside it
    // ("Escrow Agent: Heartland Escrow Company").
    const stops = hits.filter((h) => h.caption || h.label.field !== hit.label.field).map((h) => h.match);
    const cs = candidatesOf(doc, hit, stops);
    const entry = candidates.get(hit.label.field) ?? { label: hit.label, candidates: [] };
    entry.candidates.push(...cs);
    candidates.set(hit.label.field, entry);
    if (!cs.length && hit.caption) {
      const raw = doc.pages.get(hit.match.page)!.raw.slice(hit.match.rawStart, hit.match.rawEnd);
      unread.set(hit.label.field, [...(unread.get(hit.label.field) ?? []), `p${hit.match.page} '${raw}'`]);
    }
  }
  readInParagraphs(doc, candidates, unread);
  return { candidates, unread };
}

/**
 * Numbered paragraphs (paragraphs.ts): a field whose paragraph is found is read within that paragraph and only
 * there — label reads outside it are dropped, the paragraph's own values added (in place).
 */
function readInParagraphs(doc: DocText, candidates: GenericReading['candidates'], unread: GenericReading['unread']): void {
  for (const { paragraph, values } of readParagraphs(doc)) {
    for (const field of PARAGRAPH_FIELDS[paragraph.kind!]) {
      const label = GENERIC_LABELS.find((l) => l.field === field)!;
      const entry = candidates.get(field) ?? { label, candidates: [] };
      entry.candidates = entry.candidates.filter((c) => inParagraph(paragraph, c.span));
      for (const v of values.filter((x) => x.field === field)) {
        entry.candidates.push({ value: v.value, span: v.span, certainty: PARAGRAPH_CERTAINTY, where: 'paragraph' });
      }
      candidates.set(field, entry);
      if (!entry.candidates.length) unread.set(field, [...(unread.get(field) ?? []), `p${paragraph.page} ¶${paragraph.number} ${paragraph.heading}`]);
    }
  }
}

/**
 * Cross-field checks on a generic result (in place): earnest money below the price, a financed amount not
 * above it, the Closing Date after the Effective Date, no one both buyer and seller. A failed check empties the
 * fields involved, with a warning.
 */
export function checkGenericConsistency(fields: ContractFields): void {
  const drop = (name: ContractFieldName, why: string) => {
    (fields[name] as ExtractedField<unknown>) = missing([why]);
  };
  const price = fields.salesPriceTotal.value;
  if (price !== null && fields.earnestMoney.value !== null && fields.earnestMoney.value >= price) drop('earnestMoney', `earnest money ${fields.earnestMoney.value} not below the price ${price}; not reported`);
  if (price !== null && fields.salesPriceFinanced.value !== null && fields.salesPriceFinanced.value > price) drop('salesPriceFinanced', `financed amount above the price ${price}; not reported`);
  const eff = fields.effectiveDate.value;
  const close = fields.closingDate.value;
  if (eff && close && close < eff) {
    drop('closingDate', `Closing Date ${close} is before the Effective Date ${eff}; not reported`);
    drop('effectiveDate', `Effective Date ${eff} is after the Closing Date ${close}; not reported`);
  }
  const buyers = new Set((fields.buyers.value ?? []).map(nameKey));
  if ((fields.sellers.value ?? []).some((s) => buyers.has(nameKey(s)))) {
    drop('buyers', 'the same name is read as buyer and seller; not reported');
    drop('sellers', 'the same name is read as buyer and seller; not reported');
  }
}

/** Puts one resolved field (or the address's four) into `fields`. */
export function assignGeneric(fields: ContractFields, field: GenericField, value: ExtractedField<unknown>): void {
  if (field !== 'address') {
    (fields[field] as ExtractedField<unknown>) = value;
    return;
  }
  const a = value.value as { street: string | null; city: string | null; state: string | null; zip: string | null } | null;
  const part = (v: string | null): ExtractedField<string> => (a && v ? { ...value, value: v, warnings: [...value.warnings] } : missing([...value.warnings]));
  fields.propertyStreet = part(a?.street ?? null);
  fields.propertyCity = part(a?.city ?? null);
  fields.propertyState = part(a?.state ?? null);
  fields.propertyZip = part(a?.zip ?? null);
}

/** Resolves a reading into fields (conflicts and unreadable labels become warnings), then checks consistency. */
export function resolveGeneric(reading: GenericReading): ContractFields {
  const fields = emptyFields();
  for (const [field, { label, candidates }] of reading.candidates) {
    if (candidates.length) assignGeneric(fields, field, resolve(label, candidates));
  }
  for (const [field, where] of reading.unread) {
    if (reading.candidates.get(field)?.candidates.length) continue;
    const f = field === 'address' ? 'propertyStreet' : field;
    (fields[f] as ExtractedField<unknown>).warnings.push(`label found (${where.join(', ')}) but no plausible value next to it; not reported`);
  }
  checkGenericConsistency(fields);
  // A purchase price with a cash financing type and no financed amount: the whole price is cash.
  if (fields.financingType.value === 'cash' && fields.salesPriceTotal.value !== null && fields.salesPriceCash.value === null && fields.salesPriceFinanced.value === null) {
    fields.salesPriceCash = { ...fields.salesPriceTotal, citations: [...fields.salesPriceTotal.citations], warnings: [...fields.salesPriceTotal.warnings] };
  }
  return fields;
}

/**
 * Runs the generic reader over a document's blocks.
 * @returns fields, no printed form terms, document warnings
 */
export function extractGeneric(blocks: Block[], doc: DocText = buildDocText(blocks)): { fields: ContractFields; terms: FormTerms; warnings: string[] } {
  return { fields: resolveGeneric(readGenericCandidates(doc)), terms: {}, warnings: [] };
}
