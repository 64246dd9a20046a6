/**
 * Field rules for the Colorado Real Estate Commission's Contract to Buy and Sell Real Estate (Residential),
 * form CBS1 (the edition is read from the document, e.g. "(CBS1-8-24)"). Unlike TREC's, this form states its
 * deadlines as dates in the §3.1 "Dates and Deadlines" table (item no. | reference | event | date or
 * deadline); they are read row by row and cited with the item number printed in this document, since item
 * numbers move between editions.
 *
 * What is read: §2.1 Buyer and §2.3 Seller ("____ (Buyer) will take title", "____ (Seller) is the current
 * owner"), §2.4 the Property (county, legal description, "known as" address), the §3.1 table, the §3.3 weekend
 * and holiday election ("such deadline □ Will □ Will Not be extended"), the §4.1 price table (Purchase Price,
 * Earnest Money, New Loan, Assumption Balance, Private/Seller Financing), §4.3's Earnest Money Holder, and the
 * signature dates. The Effective Date is MEC, "mutual execution of this Contract": the date both parties have
 * signed, i.e. the latest signature date — only when every signature line has its date.
 */
import type { Block, ContractFields, ExtractedField, FinancingType } from '#domain/extraction/types';
import {
  buildDocText,
  checkboxLeftOf,
  findAllPhrases,
  findPhrase,
  selectionElements,
  textBetween,
  type DocText,
  type Match,
  type Span,
} from '#domain/extraction/lines';
import { afterOnRow } from '#domain/extraction/nearby';
import { emptyFields, found, missing } from '#domain/extraction/fields';
import { readDate } from '#domain/extraction/dates';
import { plausibleMoney } from '#domain/extraction/plausible';
import { parseAddress, properCase, splitNames } from '#domain/extraction/normalize';
import { addDays } from '#domain/calendar';
import type { ExtractedKeyDateType, FormTerms, StatedDate } from '#domain/extraction/key-dates';

/**
 * The form number printed at the top of page 1, "(CBS1-8-24)", when the title "CONTRACT TO BUY AND SELL REAL
 * ESTATE", "(RESIDENTIAL)" and the Colorado Real Estate Commission's approval line are there too; else null.
 */
export function recognizeCbs1(doc: DocText): string | null {
  if (!findPhrase(doc, 'CONTRACT TO BUY AND SELL REAL ESTATE') || !findPhrase(doc, '(RESIDENTIAL)')) return null;
  if (!findPhrase(doc, 'approved by the Colorado Real Estate Commission')) return null;
  const m = findPhrase(doc, '(CBS1-', { errorRate: 0 });
  if (!m) return null;
  const raw = doc.pages.get(m.page)!.raw.slice(m.rawStart, m.rawEnd + 8);
  const ed = /CBS1\s*-\s*(\d{1,2})\s*-\s*(\d{2})/i.exec(raw.replace(/[Oo](?=\d)|(?<=\d)[Oo]/g, '0'));
  return ed ? `CBS1-${ed[1]}-${ed[2]}` : null;
}

/** Key dates read from §3.1 rows, by event name (first found wins; names differ between editions). */
export const CBS1_DEADLINES: readonly { type: ExtractedKeyDateType; events: string[]; label: string }[] = [
  { type: 'EarnestMoneyDue', events: ['Alternative Earnest Money Deadline'], label: 'Earnest money due' },
  { type: 'TitleObjectionDeadline', events: ['Record Title Objection Deadline'], label: 'Title objections due' },
  { type: 'InspectionDeadline', events: ['Inspection Objection Deadline', 'Inspection Termination Deadline'], label: 'Inspection objection deadline' },
  { type: 'FinancingDeadline', events: ['New Loan Termination Deadline', 'Loan Objection Deadline'], label: 'Loan termination deadline' },
  { type: 'SurveyDeadline', events: ['New ILC or New Survey Deadline'], label: 'Survey due' },
];

/** One §3.1 row: its item number, reference, the date cell's text and the tokens read. */
interface DeadlineRow {
  item: string;
  reference: string;
  event: string;
  cell: Span;
}

/**
 * The §3.1 row of `event`: an occurrence of the event on a row that starts with an item number followed by a
 * "§" reference (the table, not the paragraph that defines the term). Null when the table has no such row.
 */
function deadlineRow(doc: DocText, event: string): DeadlineRow | null {
  for (const m of findAllPhrases(doc, event)) {
    const page = doc.pages.get(m.page)!;
    const row = page.rowOf[m.start];
    const [start] = page.rowRaw[row];
    const head = page.raw.slice(start, m.rawStart);
    const cols = /^\s*(\d{1,2})\s+(§\s*[\d.,\s]+)/.exec(head);
    if (!cols) continue;
    return { item: cols[1], reference: cols[2].replace(/\s+/g, ' ').replace(/[,\s]+$/, ''), event, cell: afterOnRow(doc, m) };
  }
  return null;
}

/** A deadline cell: an absolute date, or "N days after MEC" / "MEC + N" counted from `mec`; null for "N/A" or blank. */
function cellDate(text: string, mec: string | null): { date: string; how: string } | null {
  const abs = readDate(text);
  if (abs.value) return { date: abs.value, how: 'as written' };
  const rel = /(\d{1,3})\s*days?\s*after\s*MEC|MEC\s*\+\s*(\d{1,3})/i.exec(text);
  if (rel && mec) {
    const n = Number(rel[1] ?? rel[2]);
    return { date: addDays(mec, n), how: `MEC ${mec} + ${n} days` };
  }
  return null;
}

const certaintyOf = (...ms: (Match | null | undefined)[]): number => Math.max(0.7, 1 - 0.03 * ms.reduce((n, m) => n + (m?.distance ?? 0), 0));

/** Text between two labels (the second after the first), with the labels' certainty; null when either is missing. */
function between(doc: DocText, before: string, after: string): { span: Span; certainty: number } | null {
  const a = findPhrase(doc, before);
  const b = a && findPhrase(doc, after, { page: a.page, after: a });
  return a && b ? { span: textBetween(doc, a, b), certainty: certaintyOf(a, b) } : null;
}

/** A §4.1 price-table amount by its item name ("Purchase Price", "New Loan"): the row's dollar figure. */
function priceRow(doc: DocText, item: string): ExtractedField<number> {
  for (const m of findAllPhrases(doc, item)) {
    const page = doc.pages.get(m.page)!;
    const head = page.raw.slice(page.rowRaw[page.rowOf[m.start]][0], m.rawStart);
    // The item name right after its item number and § 4.x reference (not "Alternative Earnest Money Deadline").
    if (!/^\s*\d{1,2}\s+§\s*4[\d.]*\s*$/.test(head)) continue;
    const cell = afterOnRow(doc, m);
    const v = plausibleMoney(cell.text, 1, 100_000_000);
    if (v !== null) return found(v, [cell], certaintyOf(m));
  }
  return missing();
}

/** §3.3 "such deadline □ Will □ Will Not be extended": true (Will), false (Will Not or neither, as the form says), null when unreadable. */
function weekendElection(doc: DocText, selections: ReturnType<typeof selectionElements>): boolean | null {
  const head = findPhrase(doc, 'such deadline');
  if (!head) return null;
  const will = findPhrase(doc, 'Will', { page: head.page, after: head, errorRate: 0 });
  const willNot = will && findPhrase(doc, 'Will Not', { page: head.page, after: will, errorRate: 0 });
  if (!will || !willNot) return null;
  const yes = checkboxLeftOf(doc, will, selections, 0.03, head).state === 'checked';
  const no = checkboxLeftOf(doc, willNot, selections, 0.03, will).state === 'checked';
  if (yes && no) return null;
  // "Should neither box be checked, the deadline will not be extended."
  return yes;
}

/** Signature dates: the "Date" after each "Buyer's Signature" / "Seller's Signature" caption, as read. */
function signatureDates(doc: DocText): { party: 'Buyer' | 'Seller'; date: string | null; span: Span }[] {
  const out: { party: 'Buyer' | 'Seller'; date: string | null; span: Span }[] = [];
  for (const party of ['Buyer', 'Seller'] as const) {
    for (const sig of findAllPhrases(doc, `${party}’s Signature`)) {
      const date = findPhrase(doc, 'Date', { page: sig.page, after: sig, errorRate: 0 });
      if (!date || doc.pages.get(sig.page)!.rowOf[date.start] !== doc.pages.get(sig.page)!.rowOf[sig.start]) continue;
      const cell = afterOnRow(doc, date);
      out.push({ party, date: cell.text ? readDate(cell.text).value : null, span: cell });
    }
  }
  return out;
}

/**
 * Runs the CBS1 rules over a document's blocks.
 * @param formType the edition read by {@link recognizeCbs1}, e.g. "CBS1-8-24" (used in citations)
 * @returns fields, the stated deadlines and weekend election as terms, document warnings
 */
export function extractCbs1(blocks: Block[], doc: DocText = buildDocText(blocks), formType = 'CBS1'): { fields: ContractFields; terms: FormTerms; warnings: string[] } {
  const fields = emptyFields();
  const warnings: string[] = [];
  const selections = selectionElements(blocks);

  const buyers = between(doc, '2.1. Buyer.', '(Buyer) will take title');
  if (buyers?.span.text) fields.buyers = found(splitNames(buyers.span.text), [buyers.span], buyers.certainty);
  const sellers = between(doc, '2.3. Seller.', '(Seller) is the current owner');
  if (sellers?.span.text) fields.sellers = found(splitNames(sellers.span.text), [sellers.span], sellers.certainty);

  // §2.4 "…real estate in the County of ____, Colorado: [legal description] known as: [address]".
  const countyOf = findPhrase(doc, 'real estate in the County of');
  const colorado = countyOf && findPhrase(doc, 'Colorado:', { page: countyOf.page, after: countyOf });
  const knownAs = colorado && findPhrase(doc, 'known as', { page: colorado.page, after: colorado });
  if (countyOf && colorado) {
    const span = textBetween(doc, countyOf, colorado);
    if (span.text) fields.county = found(properCase(span.text.replace(/\s+county$/i, '')), [span], certaintyOf(countyOf, colorado));
  }
  if (colorado && knownAs) {
    const span = textBetween(doc, colorado, knownAs);
    if (span.text) fields.legalDescription = found(span.text, [span], certaintyOf(colorado, knownAs));
  }
  const address = between(doc, 'known as', 'Street Address, City, State, Zip');
  if (address?.span.text) {
    const a = parseAddress(address.span.text);
    const part = (v: string | null) => (v ? found(v, [address.span], address.certainty) : missing<string>());
    fields.propertyStreet = part(a.street);
    fields.propertyCity = part(a.city);
    fields.propertyState = part(a.state);
    fields.propertyZip = part(a.zip);
  }

  // §4.1 Price and Terms.
  fields.salesPriceTotal = priceRow(doc, 'Purchase Price');
  fields.earnestMoney = priceRow(doc, 'Earnest Money');
  const financed: [string, FinancingType][] = [
    ['New Loan', 'third_party'],
    ['Assumption Balance', 'loan_assumption'],
    ['Private Financing', 'seller_financing'],
    ['Seller Financing', 'seller_financing'],
  ];
  const loans = financed.map(([item, type]) => ({ type, field: priceRow(doc, item) })).filter((l) => l.field.value !== null && l.field.value > 0);
  if (loans.length) {
    const sum = Math.round(loans.reduce((n, l) => n + l.field.value!, 0) * 100) / 100;
    fields.salesPriceFinanced = { ...loans[0].field, value: sum, citations: loans.flatMap((l) => l.field.citations) };
    const types = [...new Set(loans.map((l) => l.type))];
    fields.financingType = types.length === 1 ? { ...loans[0].field, value: types[0] } : missing([`conflicting values: ${types.join(' vs ')} (§4.1)`]);
  } else if (fields.salesPriceTotal.value !== null) {
    fields.financingType = { ...fields.salesPriceTotal, value: 'cash', warnings: [...fields.salesPriceTotal.warnings] };
  }
  if (fields.salesPriceTotal.value !== null) {
    // The cash portion of the price (earnest money included), as TREC's ¶3A counts it: price − financing.
    const cash = Math.round((fields.salesPriceTotal.value - (fields.salesPriceFinanced.value ?? 0)) * 100) / 100;
    fields.salesPriceCash = { ...fields.salesPriceTotal, value: cash, warnings: [...fields.salesPriceTotal.warnings] };
  }
  const holder = between(doc, 'payable to and held by', '(Earnest Money Holder)');
  if (holder?.span.text) fields.escrowAgent = found(holder.span.text, [holder.span], holder.certainty);

  // Effective Date = MEC: the latest signature date, when every signature line has one.
  const signed = signatureDates(doc);
  const undated = signed.filter((s) => s.date === null);
  if (signed.some((s) => s.party === 'Buyer') && signed.some((s) => s.party === 'Seller') && !undated.length) {
    const last = signed.reduce((a, b) => (b.date! > a.date! ? b : a));
    fields.effectiveDate = found(last.date!, [last.span], 0.95);
  } else if (signed.length) {
    fields.effectiveDate = missing([`MEC not read: ${undated.length} of ${signed.length} signature dates missing or unreadable`]);
  }
  const mec = fields.effectiveDate.value;

  // §3.1 Dates and Deadlines.
  const cite = (r: DeadlineRow) => `${formType} §3.1 item ${r.item} (${r.reference} ${r.event})`;
  const closing = deadlineRow(doc, 'Closing Date');
  if (closing) {
    const d = cellDate(closing.cell.text, mec);
    if (d) fields.closingDate = found(d.date, [closing.cell], 1);
    else if (closing.cell.text && !/^n\/?a$/i.test(closing.cell.text)) fields.closingDate = missing([`unreadable date: '${closing.cell.text}' (${cite(closing)})`]);
  }
  const statedDates: StatedDate[] = [];
  for (const { type, events, label } of CBS1_DEADLINES) {
    const row = events.map((e) => deadlineRow(doc, e)).find((r) => r !== null);
    if (!row) continue;
    const d = cellDate(row.cell.text, mec);
    if (d) statedDates.push({ keyDateType: type, date: d.date, label, source: `${cite(row)}${d.how === 'as written' ? '' : `; ${d.how}`}` });
  }
  const extend = weekendElection(doc, selections);
  const terms: FormTerms = {
    statedDates,
    paragraphs: {
      closing: closing ? `§3.1 item ${closing.item} (${closing.reference} Closing Date)` : '§12.3',
      option: '§10.3',
      earnestMoney: '§4.3',
      optionFee: '§4.3',
      survey: '§9',
      objection: '§8',
      commitment: '§8.1',
    },
    jurisdiction: 'US',
    ...(extend
      ? { weekendRule: { paragraph: '§3.3 (Will be extended)', appliesTo: ['ClosingDate', 'EarnestMoneyDue', 'TitleObjectionDeadline', 'InspectionDeadline', 'FinancingDeadline', 'SurveyDeadline'] } }
      : {}),
  };
  if (extend === null) warnings.push(`${formType} §3.3 weekend/holiday election not read: deadlines are not extended`);
  return { fields, terms, warnings };
}
