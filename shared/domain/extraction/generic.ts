/**
 * Field rules for residential purchase contracts other than TREC 20-18 (other states' forms, brokerage forms,
 * attorney-drafted agreements). They look for common "Label: value" captions — the value to the right of the
 * caption on the same row, or on the next row when the caption stands alone — and never exceed
 * {@link GENERIC_CONFIDENCE_CAP}, so a generic result is always reviewed by a person.
 *
 * Mapping to ContractFields: the inspection / due-diligence period's days go to `optionPeriodDays` (its
 * InspectionDeadline role); a "Financing Contingency" period stated in the contract goes to
 * `financingDeadlineDays`; the state comes from the address line only (no default).
 */
import type { Block, ContractFieldName, ContractFields, ExtractedField, FinancingType } from '#domain/extraction/types';
import {
  buildDocText,
  findAllPhrases,
  inRegion,
  spanOf,
  type DocText,
  type Match,
  type Span,
} from '#domain/extraction/lines';
import { emptyFields, found, missing } from '#domain/extraction/fields';
import { parseAddress, parseDate, parseDays, parseMoney, splitNames } from '#domain/extraction/normalize';
import type { FormTerms } from '#domain/extraction/key-dates';

/** Highest confidence a generic rule reports (0–1): below the 0.8 review threshold on purpose. */
export const GENERIC_CONFIDENCE_CAP = 0.75;

type Kind = 'text' | 'names' | 'money' | 'date' | 'days' | 'address' | 'financing';

/** One caption family: the field it fills, how to parse it, and its captions (most specific first). */
interface Caption {
  field: ContractFieldName | 'address';
  kind: Kind;
  labels: string[];
}

/**
 * Captions recognized, most specific first within a field. A caption counts only when followed by ":" or
 * when it is alone on its row (value on the next row), so sentences such as "Buyer shall…" are not read.
 */
export const GENERIC_CAPTIONS: readonly Caption[] = [
  { field: 'address', kind: 'address', labels: ['Property Address', 'Address of Property', 'Premises Address'] },
  { field: 'county', kind: 'text', labels: ['County'] },
  { field: 'legalDescription', kind: 'text', labels: ['Legal Description'] },
  { field: 'buyers', kind: 'names', labels: ['Buyer(s)', 'Buyers', 'Purchaser(s)', 'Purchasers', 'Buyer', 'Purchaser'] },
  { field: 'sellers', kind: 'names', labels: ['Seller(s)', 'Sellers', 'Seller'] },
  { field: 'salesPriceTotal', kind: 'money', labels: ['Total Purchase Price', 'Purchase Price', 'Sales Price', 'Sale Price'] },
  { field: 'salesPriceFinanced', kind: 'money', labels: ['Loan Amount', 'Financed Amount', 'Amount Financed'] },
  { field: 'financingType', kind: 'financing', labels: ['Financing Type', 'Financing', 'Type of Financing'] },
  { field: 'earnestMoney', kind: 'money', labels: ['Earnest Money Deposit', 'Earnest Money', 'Initial Deposit', 'Deposit'] },
  { field: 'escrowAgent', kind: 'text', labels: ['Escrow Agent/Title Company', 'Escrow Agent', 'Title Company', 'Escrow Holder', 'Settlement Agent'] },
  { field: 'optionPeriodDays', kind: 'days', labels: ['Inspection Period', 'Due Diligence Period', 'Inspection Contingency Period', 'Inspection Contingency'] },
  { field: 'financingDeadlineDays', kind: 'days', labels: ['Financing Contingency Period', 'Financing Contingency', 'Loan Contingency Period', 'Loan Contingency'] },
  { field: 'effectiveDate', kind: 'date', labels: ['Effective Date', 'Acceptance Date', 'Date of Acceptance', 'Contract Date'] },
  { field: 'closingDate', kind: 'date', labels: ['Closing Date', 'Settlement Date', 'Close of Escrow', 'Closing'] },
  { field: 'buyerAgent', kind: 'text', labels: ["Buyer's Agent", 'Buyer’s Agent', 'Selling Agent'] },
  { field: 'buyerBrokerage', kind: 'text', labels: ["Buyer's Brokerage", 'Buyer’s Brokerage', "Buyer's Broker", 'Selling Broker'] },
  { field: 'listingAgent', kind: 'text', labels: ["Listing Agent", "Seller's Agent", 'Seller’s Agent'] },
  { field: 'listingBrokerage', kind: 'text', labels: ['Listing Brokerage', 'Listing Broker', "Seller's Broker"] },
];

interface Hit {
  caption: Caption;
  label: string;
  match: Match;
}

/** True when a caption match is a caption: ":" right after it, or nothing else on its row before the next caption. */
function isCaption(doc: DocText, m: Match): boolean {
  const page = doc.pages.get(m.page)!;
  const after = page.raw.slice(m.rawEnd, m.rawEnd + 3);
  if (/^\s?:/.test(after)) return true;
  const row = page.rowOf[m.end];
  const [rowStart, rowEnd] = page.rowRaw[row];
  const before = page.raw.slice(rowStart, m.rawStart).trim();
  const rest = page.raw.slice(m.rawEnd, rowEnd).trim();
  return before === '' && rest === '';
}

/** All caption hits of the document, longest label first where two overlap, in page/reading order. */
function findCaptions(doc: DocText): Hit[] {
  const hits: Hit[] = [];
  for (const caption of GENERIC_CAPTIONS) {
    for (const label of caption.labels) {
      for (const m of findAllPhrases(doc, label, { errorRate: label.length >= 10 ? 1 / 10 : 0 })) {
        if (!isCaption(doc, m)) continue;
        // A caption's match must start at a token boundary (not inside "Purchaser" for "Seller" etc.).
        const page = doc.pages.get(m.page)!;
        if (m.rawStart > 0 && /[A-Za-z]/.test(page.raw[m.rawStart - 1] ?? '')) continue;
        if (/^[A-Za-z]/.test(page.raw[m.rawEnd] ?? '')) continue;
        hits.push({ caption, label, match: m });
      }
    }
  }
  // Drop hits contained in a longer hit (e.g. "Escrow Agent" inside "Escrow Agent/Title Company").
  const kept = hits.filter(
    (h) =>
      !hits.some(
        (o) =>
          o !== h &&
          o.match.page === h.match.page &&
          o.match.rawStart <= h.match.rawStart &&
          o.match.rawEnd >= h.match.rawEnd &&
          o.match.rawEnd - o.match.rawStart > h.match.rawEnd - h.match.rawStart,
      ),
  );
  return kept.sort((a, b) => a.match.page - b.match.page || a.match.rawStart - b.match.rawStart);
}

/** The value of a caption: its row up to the next caption, else the next row up to the next caption. */
function captionValue(doc: DocText, hit: Hit, hits: Hit[]): Span {
  const page = doc.pages.get(hit.match.page)!;
  const next = hits.find((o) => o.match.page === hit.match.page && o.match.rawStart >= hit.match.rawEnd);
  const limit = next ? next.match.rawStart : page.raw.length;
  const row = page.rowOf[hit.match.end];
  let from = hit.match.rawEnd;
  const colon = /^\s?:/.exec(page.raw.slice(from, from + 3));
  if (colon) from += colon[0].length;
  const sameRow = spanOf(doc, page.page, from, Math.min(page.rowRaw[row][1], limit));
  if (sameRow.text) return sameRow;
  const nextRow = page.rowRaw[row + 1];
  if (!nextRow || nextRow[0] >= limit) return sameRow;
  // The next row's text, limited to the caption's column (a caption on the left reads the left part).
  const capLeft = hit.match.tokens[0].box.left;
  const region = { left: capLeft - 0.02 };
  const span = spanOf(doc, page.page, nextRow[0], Math.min(nextRow[1], limit), region);
  return span.tokens.every((t) => inRegion(t.box, region)) ? span : sameRow;
}

const FINANCING: [RegExp, FinancingType][] = [
  [/\bcash\b/i, 'cash'],
  [/assum/i, 'loan_assumption'],
  [/seller|owner/i, 'seller_financing'],
  [/conventional|fha|va\b|usda|loan|mortgage|third/i, 'third_party'],
];

/** Parses a caption's text into its field's value (null when unreadable). */
function parse(kind: Kind, text: string): unknown {
  switch (kind) {
    case 'money':
      return parseMoney(text);
    case 'date':
      return parseDate(text);
    case 'days':
      return parseDays(text);
    case 'names': {
      const names = splitNames(text);
      return names.length ? names : null;
    }
    case 'financing':
      return FINANCING.find(([re]) => re.test(text))?.[1] ?? null;
    default:
      return text || null;
  }
}

/**
 * Runs the generic caption rules over a document's blocks.
 * @returns fields (confidence ≤ {@link GENERIC_CONFIDENCE_CAP}), no printed form terms, document warnings
 */
export function extractGeneric(blocks: Block[], doc: DocText = buildDocText(blocks)): { fields: ContractFields; terms: FormTerms; warnings: string[] } {
  const fields = emptyFields();
  const hits = findCaptions(doc);
  const done = new Set<string>();
  for (const hit of hits) {
    const key = hit.caption.field;
    if (done.has(key)) continue;
    const span = captionValue(doc, hit, hits);
    if (!span.text) continue;
    const certainty = Math.max(0.7, 1 - 0.05 * hit.match.distance);
    const opts = { cap: GENERIC_CONFIDENCE_CAP };
    if (key === 'address') {
      const a = parseAddress(span.text);
      if (a.street) fields.propertyStreet = found(a.street, [span], certainty, opts);
      if (a.city) fields.propertyCity = found(a.city, [span], certainty, opts);
      if (a.state) fields.propertyState = found(a.state, [span], certainty, opts);
      if (a.zip) fields.propertyZip = found(a.zip, [span], certainty, opts);
      done.add(key);
      continue;
    }
    const value = parse(hit.caption.kind, span.text);
    if (value === null) {
      (fields[key] as ExtractedField<unknown>) = missing([`unreadable ${hit.caption.kind}: '${span.text}'`]);
      continue;
    }
    (fields[key] as ExtractedField<unknown>) = found(value, [span], certainty, opts);
    done.add(key);
  }
  // A purchase price with no financed amount and a cash financing type: the whole price is cash.
  if (fields.financingType.value === 'cash' && fields.salesPriceTotal.value !== null && fields.salesPriceCash.value === null) {
    fields.salesPriceCash = { ...fields.salesPriceTotal, citations: [...fields.salesPriceTotal.citations], warnings: [...fields.salesPriceTotal.warnings] };
  }
  return { fields, terms: {}, warnings: [] };
}
