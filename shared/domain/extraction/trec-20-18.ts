/**
 * Field rules for the Texas Real Estate Commission's One to Four Family Residential Contract (Resale),
 * TREC No. 20-18 (11-04-2024), which also read the other TREC contracts recognized by trec-forms.ts (earlier
 * 20-x editions, the new-home contracts 23-x/24-x, the condominium contract 30-x): they share the wording these
 * rules anchor on, and where they differ (¶2 of the new-home and condominium forms, the ¶5/¶23 option of
 * 20-15 and earlier) each rule tries the other wording too. Each rule reads one blank of the printed form by
 * its surrounding printed words (the labels before and after the blank, located with OCR-tolerant matching in
 * geometric reading order, see lines.ts) and cites the paragraph it reads; paragraph numbers below are 20-18's.
 *
 * A date blank left empty in reading order is looked for on the row just above or below it (e-signature
 * platforms type values above the underline; see nearby.ts).
 *
 * Filled values in a flattened form are separate text items drawn into the blanks; reading between the
 * printed words on either side of a blank (in row order built from the boxes) picks them up wherever the
 * PDF's content stream put them. Checkboxes are read from the glyph drawn over the printed box (see
 * `checkboxLeftOf`).
 */
import type { Block, ContractFields, ExtractedField, FinancingType } from '#domain/extraction/types';
import {
  buildDocText,
  checkboxInArea,
  checkboxLeftOf,
  citationOf,
  findAllPhrases,
  findPhrase,
  matchAt,
  matchBox,
  pageString,
  selectionElements,
  spanOf,
  textBetween,
  valueAbove,
  valueAfter,
  type DocText,
  type Match,
  type Region,
  type Span,
  type Token,
} from '#domain/extraction/lines';
import { emptyFields, found, missing } from '#domain/extraction/fields';
import { rowNear } from '#domain/extraction/nearby';
import { readDate } from '#domain/extraction/dates';
import { recognizeTrec, type TrecForm } from '#domain/extraction/trec-forms';
import { nameKey, parseAddress, parseDate, parseDays, parseMoney, properCase, splitNames } from '#domain/extraction/normalize';
import { TREC_20_18_TERMS, TREC_PARAGRAPHS, type FormTerms } from '#domain/extraction/key-dates';

/** The form type label of this module. */
export const TREC_20_18 = 'TREC 20-18' as const;

/**
 * True when the document identifies itself as TREC 20-18: the title "ONE TO FOUR FAMILY RESIDENTIAL CONTRACT
 * (RESALE)" and the footers' form number reading 20-18 (page 9's "This form replaces TREC NO. 20-17" does not
 * count; see trec-forms.ts `recognizeTrec` for the other TREC forms).
 */
export function isTrec2018(doc: DocText): boolean {
  return recognizeTrec(doc).form?.formType === TREC_20_18;
}

/** Everything the TREC rules read: the fields and the form's own printed terms for key-date math. */
export interface TrecExtraction {
  fields: ContractFields;
  terms: FormTerms;
  /** Document-level warnings (e.g. a conflict between two places). */
  warnings: string[];
}

/** Context shared by the rules of one document (see {@link trecContext}). */
export interface TrecContext {
  doc: DocText;
  /** The recognized form (edition, structure). */
  form: TrecForm;
  selections: ReturnType<typeof selectionElements>;
  /** Page of each paragraph group in this document (found from its heading; defaults to the form's page). */
  pages: Record<'p1' | 'p2' | 'p3' | 'p5' | 'p8' | 'p9' | 'p10' | 'p11', number>;
}

/** Finds a label on the expected page, else on any page (a scan may shift pages). */
function label(ctx: TrecContext, phrase: string, page: number, opts: { after?: Match; region?: Region } = {}): Match | null {
  return (
    findPhrase(ctx.doc, phrase, { page, after: opts.after, region: opts.region }) ??
    (opts.after ? null : findPhrase(ctx.doc, phrase, { region: opts.region }))
  );
}

/** Rule certainty from the labels' edit distances: 1 for exact labels, −0.03 per edit, floor 0.7. */
const certaintyOf = (...ms: (Match | null | undefined)[]): number =>
  Math.max(0.7, 1 - 0.03 * ms.reduce((n, m) => n + (m?.distance ?? 0), 0));

/** The text between two labels (the second searched after the first), or null when a label is missing. */
function between(ctx: TrecContext, before: string, after: string, page: number, region?: Region): { span: Span; certainty: number } | null {
  const a = label(ctx, before, page);
  if (!a) return null;
  const b = findPhrase(ctx.doc, after, { page: a.page, after: a });
  if (!b) return null;
  return { span: textBetween(ctx.doc, a, b, region), certainty: certaintyOf(a, b) };
}

/**
 * {@link between} for the first pair of labels found with text between them (a blank worded differently in
 * another TREC form or edition); the first pair found at all when none has text.
 */
function betweenAny(ctx: TrecContext, pairs: readonly [string, string][], page: number): { span: Span; certainty: number } | null {
  let first: { span: Span; certainty: number } | null = null;
  for (const [a, b] of pairs) {
    const r = between(ctx, a, b, page);
    if (r?.span.text) return r;
    first ??= r;
  }
  return first;
}

const textField = (r: { span: Span; certainty: number } | null): ExtractedField<string> =>
  r && r.span.text ? found(r.span.text, [r.span], r.certainty) : missing();

const moneyField = (r: { span: Span; certainty: number } | null): ExtractedField<number> => {
  if (!r || !r.span.text) return missing();
  const v = parseMoney(r.span.text);
  return v === null ? missing([`unreadable amount: '${r.span.text}'`]) : found(v, [r.span], r.certainty);
};

const daysField = (r: { span: Span; certainty: number } | null): ExtractedField<number> => {
  if (!r || !r.span.text) return missing();
  const v = parseDays(r.span.text);
  return v === null ? missing([`unreadable number of days: '${r.span.text}'`]) : found(v, [r.span], r.certainty);
};

/** Only the value tokens of a money blank's row: drops dot leaders and "$". */
const amountTokens = (span: Span): Span => {
  const tokens = span.tokens.filter((t) => /\d/.test(t.text));
  return { ...span, tokens: tokens.length ? tokens : span.tokens };
};

// ---------------------------------------------------------------------------------------------------------
// ¶1 Parties
// ---------------------------------------------------------------------------------------------------------

/** Sellers — TREC 20-18 ¶1 "The parties to this contract are ____ (Seller)". Split into names. */
export function readSellers(ctx: TrecContext): { field: ExtractedField<string[]>; span?: Span } {
  const r = between(ctx, 'The parties to this contract are', '(Seller) and', ctx.pages.p1);
  if (!r || !r.span.text) return { field: missing() };
  return { field: found(splitNames(r.span.text), [r.span], r.certainty), span: r.span };
}

/** Buyers — TREC 20-18 ¶1 "(Seller) and ____ (Buyer)". Split into names. */
export function readBuyers(ctx: TrecContext): { field: ExtractedField<string[]>; span?: Span } {
  const r = between(ctx, '(Seller) and', '(Buyer).', ctx.pages.p1);
  if (!r || !r.span.text) return { field: missing() };
  return { field: found(splitNames(r.span.text), [r.span], r.certainty), span: r.span };
}

// ---------------------------------------------------------------------------------------------------------
// ¶2A Land
// ---------------------------------------------------------------------------------------------------------

/**
 * Legal description — TREC 20-18 ¶2A "LAND: Lot ____ Block ____, ____ Addition, City of …". Returned as
 * "Lot 7, Block B, Oak Hollow Addition" (the parts present; lot and block upper-cased).
 */
export function readLegalDescription(ctx: TrecContext): ExtractedField<string> {
  const lot = label(ctx, 'LAND: Lot', ctx.pages.p1) ?? label(ctx, 'PROPERTY: Lot', ctx.pages.p1);
  if (!lot) return readCondoUnit(ctx);
  const block = findPhrase(ctx.doc, 'Block', { page: lot.page, after: lot });
  const addition = findPhrase(ctx.doc, 'Addition, City of', { page: lot.page, after: lot });
  if (!block || !addition) return missing();
  const lotSpan = textBetween(ctx.doc, lot, block);
  const rest = textBetween(ctx.doc, block, addition);
  // The printed comma after the Block blank separates it from the addition/subdivision name.
  // (Without a readable comma — OCR may drop it — the block is the first word.)
  const comma = rest.text.indexOf(',');
  const cut = comma >= 0 ? comma : rest.text.indexOf(' ') >= 0 ? rest.text.indexOf(' ') : rest.text.length;
  const blockText = rest.text.slice(0, cut).trim();
  const additionText = rest.text.slice(cut).replace(/^[\s,]+/, '').replace(/[\s,]+$/, '').trim();
  // Lot and block designators are upper case on plats ("Lot 127-R, Block AA"); OCR may lower a letter.
  const parts = [
    lotSpan.text && `Lot ${lotSpan.text.toUpperCase()}`,
    blockText && `Block ${blockText.toUpperCase()}`,
    additionText && `${additionText} Addition`,
  ].filter(Boolean);
  if (!parts.length) return missing();
  return found(parts.join(', '), [lotSpan, rest], certaintyOf(lot, block, addition));
}

/**
 * Condominium unit — TREC 30-x ¶2A(1) "CONDOMINIUM UNIT: Unit ____, in Building ____, of ____, a condominium
 * project": "Unit 4B, Building 2, Riverside Lofts" (the parts present).
 */
export function readCondoUnit(ctx: TrecContext): ExtractedField<string> {
  const unit = label(ctx, 'CONDOMINIUM UNIT: Unit', ctx.pages.p1);
  if (!unit) return missing();
  const building = findPhrase(ctx.doc, ', in Building', { page: unit.page, after: unit });
  const of = building && findPhrase(ctx.doc, 'of', { page: unit.page, after: building, errorRate: 0 });
  const project = of && findPhrase(ctx.doc, ', a condominium project', { page: unit.page, after: of });
  if (!building || !of || !project) return missing();
  const spans = [textBetween(ctx.doc, unit, building), textBetween(ctx.doc, building, of), textBetween(ctx.doc, of, project)];
  const parts = [spans[0].text && `Unit ${spans[0].text}`, spans[1].text && `Building ${spans[1].text}`, spans[2].text].filter(Boolean);
  return parts.length ? found(parts.join(', '), spans, certaintyOf(unit, building, project)) : missing();
}

/** City — TREC 20-18 ¶2A "Addition, City of ____, County of" (30-x ¶2A(1): "(address/zip code), City of"); see `properCase`. */
export function readCity(ctx: TrecContext): ExtractedField<string> {
  const r = betweenAny(ctx, [['Addition, City of', 'County of'], ['(address/zip code), City of', 'County of']], ctx.pages.p1);
  return r && r.span.text ? found(properCase(r.span.text), [r.span], r.certainty) : missing();
}

/** County — TREC 20-18 ¶2A "County of ____, Texas, known as". A trailing " County" is dropped; see `properCase`. */
export function readCounty(ctx: TrecContext): ExtractedField<string> {
  const r = betweenAny(ctx, [['County of', 'Texas, known as'], ['County of', 'Texas, described in']], ctx.pages.p1);
  if (!r || !r.span.text) return missing();
  return found(properCase(r.span.text.replace(/\s+county$/i, '')), [r.span], r.certainty);
}

/**
 * Street address, city, state, zip — TREC 20-18 ¶2A "Texas, known as ____ (address/zip code)". The state is
 * 'TX' when the address line does not name one: ¶2A itself places the Property in Texas ("County of ____,
 * Texas, known as"), and a TREC form is only for Texas property. When ¶2A's blank is empty, the page header
 * "Contract Concerning ____ (Address of Property)" is read instead at lower certainty.
 */
export function readAddress(ctx: TrecContext): {
  street: ExtractedField<string>;
  city: ExtractedField<string>;
  state: ExtractedField<string>;
  zip: ExtractedField<string>;
} {
  let r = betweenAny(ctx, [['Texas, known as', '(address/zip code)'], ['a condominium project, located at', '(address/zip code)']], ctx.pages.p1);
  let certainty = r?.certainty ?? 0;
  if (!r || !r.span.text) {
    r = between(ctx, 'Contract Concerning', '(Address of Property)', ctx.pages.p2);
    certainty = (r?.certainty ?? 0) * 0.85;
  }
  if (!r || !r.span.text) return { street: missing(), city: missing(), state: missing(), zip: missing() };
  const a = parseAddress(r.span.text);
  const cite = [r.span];
  return {
    street: a.street ? found(a.street, cite, certainty) : missing(),
    city: a.city ? found(a.city, cite, certainty) : missing(),
    state: found(a.state ?? 'TX', cite, certainty),
    zip: a.zip ? found(a.zip, cite, certainty) : missing(),
  };
}

// ---------------------------------------------------------------------------------------------------------
// ¶3 Sales price and financing
// ---------------------------------------------------------------------------------------------------------

/** Reads the amount at the end of a ¶3 row whose label is `phrase` (dot leaders and "$" before the blank). */
function rowAmount(ctx: TrecContext, phrase: string, after?: Match): ExtractedField<number> {
  const m = after ? findPhrase(ctx.doc, phrase, { page: after.page, after }) : label(ctx, phrase, ctx.pages.p1);
  if (!m) return missing();
  const span = valueAfter(ctx.doc, m, { nextRows: 0 });
  if (!/\d/.test(span.text)) return missing();
  return moneyField({ span: amountTokens(span), certainty: certaintyOf(m) });
}

/** Cash portion — TREC 20-18 ¶3A "Cash portion of Sales Price payable by Buyer at closing … $ ____". */
export const readSalesPriceCash = (ctx: TrecContext): ExtractedField<number> =>
  rowAmount(ctx, 'Cash portion of Sales Price payable by Buyer at closing');

/** Financed portion — TREC 20-18 ¶3B "Sum of all financing described in the attached: … $ ____". */
export function readSalesPriceFinanced(ctx: TrecContext): ExtractedField<number> {
  const b = label(ctx, 'Sum of all financing described in the attached', ctx.pages.p1);
  if (!b) return missing();
  return rowAmount(ctx, 'Seller Financing Addendum', b);
}

/** Sales price — TREC 20-18 ¶3C "Sales Price (Sum of A and B) … $ ____". */
export const readSalesPriceTotal = (ctx: TrecContext): ExtractedField<number> => rowAmount(ctx, 'Sales Price (Sum of A and B)');

/**
 * Financing type — TREC 20-18 ¶3B boxes: "Third Party Financing Addendum", "Loan Assumption Addendum",
 * "Seller Financing Addendum". No box checked, no financed amount and a ¶3A cash portion equal to the ¶3C
 * price → 'cash'; no box checked otherwise → null. A financed amount with no
 * readable box is left null (with a warning) rather than guessed.
 */
export function readFinancingType(
  ctx: TrecContext,
  financed: ExtractedField<number>,
  cash: ExtractedField<number> = missing(),
  total: ExtractedField<number> = missing(),
): ExtractedField<FinancingType> {
  const b = label(ctx, 'Sum of all financing described in the attached', ctx.pages.p1);
  if (!b) return missing();
  const options: [string, FinancingType][] = [
    ['Third Party Financing Addendum', 'third_party'],
    ['Loan Assumption Addendum', 'loan_assumption'],
    ['Seller Financing Addendum', 'seller_financing'],
  ];
  const hits: { type: FinancingType; certainty: number; tokens: Token[]; m: Match }[] = [];
  for (const [phrase, type] of options) {
    const m = findPhrase(ctx.doc, phrase, { page: b.page, after: b });
    if (!m) continue;
    const box = checkboxLeftOf(ctx.doc, m, ctx.selections);
    if (box.state === 'checked') hits.push({ type, certainty: 1, tokens: [...box.tokens, ...m.tokens], m });
  }
  if (hits.length === 1) return found(hits[0].type, [hits[0].tokens], hits[0].certainty * certaintyOf(b, hits[0].m));
  if (hits.length > 1) {
    const best = hits[0];
    return found(best.type, [best.tokens], 0.6, {
      warnings: [`conflicting values: ${hits.map((h) => `'${h.type}'`).join(' vs ')} (p${b.page} ¶3B boxes)`],
    });
  }
  // TREC prints no "cash" box: a cash deal is one with no ¶3B box checked whose ¶3A cash portion is the
  // whole ¶3C price. Anything less certain is left empty.
  if ((financed.value === null || financed.value === 0) && cash.value !== null && cash.value === total.value) {
    return found<FinancingType>('cash', [b.tokens], certaintyOf(b) * (financed.value === 0 ? 1 : 0.95));
  }
  if (financed.value === null || financed.value === 0) return missing(['no ¶3B financing box checked and the cash portion is not the whole price']);
  return missing(['financed amount without a readable ¶3B financing box']);
}

// ---------------------------------------------------------------------------------------------------------
// ¶5 Earnest money and termination option
// ---------------------------------------------------------------------------------------------------------

/**
 * Escrow agent — TREC 20-18 ¶5A "Buyer must deliver to ____ (Escrow Agent) at"; 20-15 and earlier ¶5 "as earnest
 * money to ____, as escrow agent, at".
 */
export const readEscrowAgent = (ctx: TrecContext): ExtractedField<string> =>
  textField(
    betweenAny(
      ctx,
      [
        ['must deliver to', '(Escrow Agent) at'],
        ['as earnest money to', ', as escrow agent'],
      ],
      ctx.pages.p2,
    ),
  );

/** Earnest money — TREC 20-18 ¶5A "(address): $ ____ as earnest money"; 20-15 ¶5 "Buyer must deliver $ ____ as earnest money to". */
export const readEarnestMoney = (ctx: TrecContext): ExtractedField<number> =>
  moneyField(
    betweenAny(
      ctx,
      [
        ['(address): $', 'as earnest money and'],
        ['Buyer must deliver $', 'as earnest money to'],
      ],
      ctx.pages.p2,
    ),
  );

/** Option fee — TREC 20-18 ¶5A "as earnest money and $ ____ as the Option Fee"; 20-15 ¶23 "agreement to pay Seller $ ____ (Option Fee)". */
export const readOptionFee = (ctx: TrecContext): ExtractedField<number> =>
  moneyField(
    betweenAny(
      ctx,
      [
        ['as earnest money and $', 'as the Option Fee'],
        ['agreement to pay Seller $', '(Option Fee)'],
      ],
      ctx.pages.p2,
    ),
  );

/**
 * Option period — TREC 20-18 ¶5B "by giving notice of termination to Seller within ____ days after the Effective
 * Date of this contract (Option Period)"; 20-15 ¶23 the same sentence without "(Option Period)".
 */
export const readOptionPeriodDays = (ctx: TrecContext): ExtractedField<number> =>
  daysField(
    betweenAny(
      ctx,
      [
        ['notice of termination to Seller within', 'days after the Effective Date of this contract (Option Period)'],
        ['notice of termination to Seller within', 'days after the Effective Date of this contract'],
      ],
      ctx.pages.p2,
    ),
  );

// ---------------------------------------------------------------------------------------------------------
// ¶6 Title policy and survey
// ---------------------------------------------------------------------------------------------------------

/** Title company — TREC 20-18 ¶6A "Title Policy) issued by ____ (Title Company)". Used when ¶5A names no escrow agent. */
export const readTitleCompany = (ctx: TrecContext): ExtractedField<string> =>
  textField(between(ctx, '(Title Policy) issued by', '(Title Company)', ctx.pages.p2));

/**
 * Survey days — TREC 20-18 ¶6C: one of three boxes, each "Within ____ days after the Effective Date": (1) Seller
 * furnishes the existing survey, (2) Buyer obtains a new survey, (3) Seller furnishes a new survey. The checked
 * option's days; when no box reads as checked, the only option with a number.
 */
export function readSurveyDays(ctx: TrecContext): ExtractedField<number> {
  const head = label(ctx, 'SURVEY: The survey must be made by a registered professional land surveyor', ctx.pages.p3);
  if (!head) return missing();
  const ends = [
    "days after the Effective Date of this contract, Seller shall furnish to Buyer and",
    'days after the Effective Date of this contract, Buyer may obtain a new survey',
    "days after the Effective Date of this contract, Seller, at Seller's expense shall",
  ];
  const options: { n: number; days: ExtractedField<number>; state: string; certainty: number }[] = [];
  let after: Match = head;
  ends.forEach((end, i) => {
    const opener = findPhrase(ctx.doc, `(${i + 1}) Within`, { page: head.page, after });
    if (!opener) return;
    const close = findPhrase(ctx.doc, end, { page: head.page, after: opener });
    if (!close) return;
    // The box precedes "(n)"; the blank sits between "Within" and "days".
    const box = checkboxLeftOf(ctx.doc, opener, ctx.selections);
    const span = textBetween(ctx.doc, opener, close);
    const v = span.text ? parseDays(span.text) : null;
    options.push({
      n: i + 1,
      days: v === null ? missing() : found(v, [span], certaintyOf(opener, close)),
      state: box.state,
      certainty: box.state === 'checked' ? 1 : 0.9,
    });
    after = close;
  });
  const checked = options.filter((o) => o.state === 'checked' && o.days.value !== null);
  const pick = checked.length === 1 ? checked[0] : undefined;
  if (pick) return { ...pick.days, confidence: Math.round(pick.days.confidence * pick.certainty * 1000) / 1000 };
  const withDays = options.filter((o) => o.days.value !== null);
  if (withDays.length === 1) return { ...withDays[0].days, confidence: Math.round(withDays[0].days.confidence * 0.9 * 1000) / 1000 };
  if (withDays.length > 1) {
    return {
      ...withDays[0].days,
      confidence: 0.5,
      warnings: [...withDays[0].days.warnings, 'low confidence', `conflicting values: ${withDays.map((o) => `¶6C(${o.n}) ${o.days.value} days`).join(' vs ')}`],
    };
  }
  return missing();
}

/** Objection period — TREC 20-18 ¶6D "the earlier of (i) the Closing Date or (ii) ____ days after Buyer receives the Commitment". */
export const readTitleObjectionDays = (ctx: TrecContext): ExtractedField<number> =>
  daysField(between(ctx, 'the Closing Date or (ii)', 'days after Buyer receives the', ctx.pages.p3));

/** HOA — TREC 20-18 ¶6E(2) "The Property □ is □ is not subject to mandatory membership in a property owners association". */
export function readHoa(ctx: TrecContext): ExtractedField<boolean> {
  const head = label(ctx, 'MEMBERSHIP IN PROPERTY OWNERS ASSOCIATION(S): The Property', ctx.pages.p3);
  if (!head) return missing();
  const isNot = findPhrase(ctx.doc, 'is not subject', { page: head.page, after: head });
  if (!isNot) return missing();
  // "is" (the first option) is the last "is" between the heading and "is not subject" (boxes glue to it: "q4is").
  const page = ctx.doc.pages.get(head.page)!;
  const gap = page.raw.slice(head.rawEnd, isNot.rawStart);
  const at = gap.toLowerCase().lastIndexOf('is');
  const isMatch: Match | null = at >= 0 ? matchAt(ctx.doc, head.page, head.rawEnd + at, head.rawEnd + at + 2) : null;
  const yes = isMatch ? checkboxLeftOf(ctx.doc, isMatch, ctx.selections, 0.03, head) : { state: 'unchecked' as const, tokens: [] };
  const no = checkboxLeftOf(ctx.doc, isNot, ctx.selections, 0.03, isMatch ?? undefined);
  const cites = [head.tokens, ...(isMatch ? [isMatch.tokens] : []), isNot.tokens];
  const c = certaintyOf(head, isNot);
  if (yes.state === 'checked' && no.state !== 'checked') return found(true, [...cites, yes.tokens], c);
  if (no.state === 'checked' && yes.state !== 'checked') return found(false, [...cites, no.tokens], c);
  if (yes.state === 'unchecked' && no.state === 'unchecked') return missing();
  return missing(['conflicting values: both ¶6E(2) boxes read as checked']);
}

/**
 * Financing type when ¶3B's boxes could not be read (a financed amount with no readable box): the single
 * financing addendum checked in ¶22 (Third Party Financing, Loan Assumption or Seller Financing Addendum — ¶3B
 * names the same three), at 0.9 of the addenda's confidence. Otherwise unchanged.
 */
export function financingFromAddenda(
  financing: ExtractedField<FinancingType>,
  addenda: ExtractedField<string[]>,
): ExtractedField<FinancingType> {
  if (financing.value !== null || !addenda.value) return financing;
  const byTitle: [string, FinancingType][] = [
    ['Third Party Financing Addendum', 'third_party'],
    ['Loan Assumption Addendum', 'loan_assumption'],
    ['Seller Financing Addendum', 'seller_financing'],
  ];
  const hits = byTitle.filter(([title]) => addenda.value!.includes(title));
  if (hits.length !== 1) return financing;
  const confidence = Math.round(addenda.confidence * 900) / 1000;
  return { value: hits[0][1], confidence, citations: addenda.citations, warnings: confidence < 0.8 ? ['low confidence'] : [] };
}

/** The ¶22 title of the mandatory-membership (property owners association) addendum. */
const POA_ADDENDUM = 'Addendum for Property Subject to Mandatory Membership in a Property Owners Association';

/**
 * HOA from both places the form records it: ¶6E(2) "is subject" and the ¶22 "Addendum for Property Subject to
 * Mandatory Membership in a Property Owners Association" (which ¶6E(2) tells the parties to use). Either one
 * makes the Property subject; ¶6E(2) "is not" with the addendum checked is reported as a conflict.
 */
export function combineHoa(hoa: ExtractedField<boolean>, addenda: ExtractedField<string[]>): ExtractedField<boolean> {
  const poa = addenda.value?.includes(POA_ADDENDUM) ?? false;
  if (!poa || hoa.value === true) return hoa;
  const cite = addenda.citations;
  if (hoa.value === null) {
    return { value: true, confidence: Math.round(addenda.confidence * 900) / 1000, citations: cite, warnings: addenda.confidence * 0.9 < 0.8 ? ['low confidence'] : [] };
  }
  return {
    ...hoa,
    value: true,
    citations: [...hoa.citations, ...cite],
    warnings: [...hoa.warnings, `conflicting values: ¶6E(2) 'is not' (p${hoa.citations[0]?.page ?? '?'}) vs ¶22 mandatory membership addendum (p${cite[0]?.page ?? '?'})`],
  };
}

// ---------------------------------------------------------------------------------------------------------
// ¶9 Closing, execution date
// ---------------------------------------------------------------------------------------------------------

/** True when a date blank's text holds only the form's printed words ("day of", ", 20"): nothing was filled in. */
const onlyPrintedDateWords = (text: string): boolean =>
  text.replace(/day\s*of/gi, '').replace(/(^|[\s,])20(?=[\s,]|$)/g, '').replace(/[\s,._]/g, '') === '';

/** A date in a blank's text: the TREC shapes first (`parseDate`), then any other written date (dates.ts). */
const blankDate = (text: string): string | null => parseDate(text) ?? readDate(text).value;

/**
 * A date blank between two printed labels. Read between them in reading order; when nothing but the printed
 * words ("day of", ", 20") is there, on the row just above or below the blank (values typed above the
 * underline), at 0.92 of the certainty. Missing with a warning when what is there is not a date.
 */
function dateBlank(ctx: TrecContext, before: string, after: string, page: number): ExtractedField<string> {
  const a = label(ctx, before, page);
  const b = a && findPhrase(ctx.doc, after, { page: a.page, after: a });
  if (!a || !b) return missing();
  const certainty = certaintyOf(a, b);
  const span = textBetween(ctx.doc, a, b);
  if (!onlyPrintedDateWords(span.text)) {
    const v = blankDate(span.text);
    return v ? found(v, [span], certainty) : missing([`unreadable date: '${span.text}'`]);
  }
  const p = ctx.doc.pages.get(a.page)!;
  const boxA = matchBox(a);
  const sameRow = p.rowOf[a.end] === p.rowOf[b.start];
  const hspan = { left: boxA.left + boxA.width, right: sameRow ? matchBox(b).left : 1 };
  for (const dir of ['above', 'below'] as const) {
    const near = rowNear(ctx.doc, a, dir, hspan, 1.3);
    const v = near.text ? blankDate(near.text) : null;
    if (v) return found(v, [near], certainty * 0.92, { warnings: [`read ${dir} the blank`] });
  }
  return missing();
}

/**
 * Closing date — TREC 20-18 ¶9A "The closing of the sale will be on or before ____, 20__". The first blank
 * holds month and day, the second the year's last two digits (or the whole date, "August 29, 2025").
 */
export const readClosingDate = (ctx: TrecContext): ExtractedField<string> =>
  dateBlank(ctx, 'closing of the sale will be on or before', 'or within 7 days', ctx.pages.p5);

/**
 * Effective date — TREC 20-18 page 9 "EXECUTED the ____ day of ____, 20__ (Effective Date)" (the broker fills
 * in the date of final acceptance; e-signed contracts often hold "07/20/2025" in the first blank).
 */
export const readEffectiveDate = (ctx: TrecContext): ExtractedField<string> => dateBlank(ctx, 'EXECUTED the', '(Effective Date)', ctx.pages.p9);

/**
 * Names printed at the signature lines of the execution page (TREC 20-18 p9, "Buyer" lines in the left column,
 * "Seller" in the right): text just above each caption, or just below it when nothing is above.
 */
export function readSignatureNames(ctx: TrecContext): { buyers: { name: string; tokens: Token[] }[]; sellers: { name: string; tokens: Token[] }[] } {
  const executed = label(ctx, '(BROKER: FILL IN THE DATE OF FINAL ACCEPTANCE.)', ctx.pages.p9) ?? label(ctx, '(Effective Date)', ctx.pages.p9);
  const out = { buyers: [] as { name: string; tokens: Token[] }[], sellers: [] as { name: string; tokens: Token[] }[] };
  if (!executed) return out;
  const footer = findPhrase(ctx.doc, 'The form of this contract has been approved', { page: executed.page, after: executed });
  const top = matchBox(executed).top + matchBox(executed).height;
  const bottom = footer ? matchBox(footer).top : 0.9;
  const page = ctx.doc.pages.get(executed.page)!;
  for (const [word, list, left, right] of [
    ['Buyer', out.buyers, 0, 0.5],
    ['Seller', out.sellers, 0.5, 1],
  ] as const) {
    const captions = findAllPhrases(ctx.doc, word, { page: executed.page, region: { top, bottom, left, right }, errorRate: 0 }).filter(
      (m) => m.tokens.length === 1 && m.tokens[0].key === word.toLowerCase(),
    );
    for (const cap of captions) {
      let tokens = valueAbove(ctx.doc, cap, { left: left + 0.01, right, maxGap: 0.025 });
      if (!tokens.length) {
        const capBox = matchBox(cap);
        tokens = page.tokens.filter((t) => {
          const cy = t.box.top + t.box.height / 2;
          const cx = t.box.left + t.box.width / 2;
          return cy > capBox.top + capBox.height && cy < capBox.top + capBox.height + 0.02 && cx >= left && cx < right;
        });
      }
      const name = tokens.map((t) => t.text).join(' ').trim();
      if (name && !/^(buyer|seller)$/i.test(name)) list.push({ name, tokens });
    }
  }
  return out;
}

/**
 * Adds "conflicting values" warnings when the names printed at the signatures (p9) differ from ¶1's parties:
 * "conflicting values: 'Ann Lee' (p1) vs 'Anne Lee' (p9)". Only names that match no ¶1 name are reported.
 */
export function checkPartyConflicts(
  field: ExtractedField<string[]>,
  signed: { name: string; tokens: Token[] }[],
  firstPage: number,
): string[] {
  if (!field.value || !signed.length) return [];
  const warnings: string[] = [];
  const keys = field.value.map(nameKey);
  const used = new Set<number>();
  for (const s of signed) {
    const k = nameKey(s.name);
    const exact = keys.indexOf(k);
    if (exact >= 0) {
      used.add(exact);
      continue;
    }
    // Pair with the most similar unmatched ¶1 name for the message.
    let best = -1;
    let bestScore = -1;
    keys.forEach((pk, i) => {
      if (used.has(i)) return;
      const score = similarity(pk, k);
      if (score > bestScore) {
        best = i;
        bestScore = score;
      }
    });
    const page = s.tokens[0]?.page ?? 0;
    const other = best >= 0 ? field.value[best] : field.value.join(', ');
    if (best >= 0) used.add(best);
    warnings.push(`conflicting values: '${other}' (p${firstPage}) vs '${s.name}' (p${page})`);
    if (s.tokens.length) field.citations.push({ ...citationOf(s.tokens), text: s.name });
  }
  return warnings;
}

/** Dice coefficient of character bigrams (0–1). */
function similarity(a: string, b: string): number {
  const grams = (s: string) => new Set([...s].map((_, i) => s.slice(i, i + 2)).filter((g) => g.length === 2));
  const ga = grams(a);
  const gb = grams(b);
  let inter = 0;
  for (const g of ga) if (gb.has(g)) inter++;
  return ga.size + gb.size ? (2 * inter) / (ga.size + gb.size) : 0;
}

// ---------------------------------------------------------------------------------------------------------
// ¶22 Addenda
// ---------------------------------------------------------------------------------------------------------

/**
 * The ¶22 addenda boxes of TREC 20-18: [name returned (the printed title joined across its lines), a phrase
 * from the title's first line, column]. The phrases avoid a line's first and last words: text layers and OCR
 * glue a line's end to the next line's start ("toMandatory"), and a glued word's box can land anywhere.
 */
export const TREC_20_18_ADDENDA: readonly [string, string, 'L' | 'R'][] = [
  ['Third Party Financing Addendum', 'Third Party Financing', 'L'],
  ['Seller Financing Addendum', 'Seller Financing Addendum', 'L'],
  ['Addendum for Property Subject to Mandatory Membership in a Property Owners Association', 'for Property Subject', 'L'],
  ["Buyer's Temporary Residential Lease", 'Buyer’s Temporary Residential', 'L'],
  ['Loan Assumption Addendum', 'Loan Assumption Addendum', 'L'],
  ['Addendum for Sale of Other Property by Buyer', 'Sale of Other Property', 'L'],
  ['Addendum for Reservation of Oil, Gas and Other Minerals', 'Reservation of Oil', 'L'],
  ['Addendum for "Back-Up" Contract', 'for "Back-Up" Contract', 'L'],
  ['Addendum for Coastal Area Property', 'Coastal Area Property', 'L'],
  ['Addendum for Authorizing Hydrostatic Testing', 'for Authorizing', 'L'],
  ["Addendum Concerning Right to Terminate Due to Lender's Appraisal", 'Concerning Right', 'L'],
  ['Environmental Assessment, Threatened or Endangered Species and Wetlands Addendum', 'Environmental Assessment,', 'L'],
  ["Seller's Temporary Residential Lease", 'Seller’s Temporary Residential', 'R'],
  ['Short Sale Addendum', 'Short Sale Addendum', 'R'],
  ['Addendum for Property Located Seaward of the Gulf Intracoastal Waterway', 'for Property Located', 'R'],
  [
    "Addendum for Seller's Disclosure of Information on Lead-based Paint and Lead-based Paint Hazards as Required by Federal Law",
    "for Seller's Disclosure",
    'R',
  ],
  ['Addendum for Property in a Propane Gas System Service Area', 'Property in a Propane', 'R'],
  ['Addendum Regarding Residential Leases', 'Regarding Residential Leases', 'R'],
  ['Addendum Regarding Fixture Leases', 'Regarding Fixture Leases', 'R'],
  ['Addendum containing Notice of Obligation to Pay Improvement District Assessment', 'containing Notice of', 'R'],
  ['Addendum for Section 1031 Exchange', 'Section 1031 Exchange', 'R'],
];

/**
 * ¶22 box columns on the official form (normalized x): the box glyph lies between `boxLeft` and `labelLeft`
 * (left column: box at 65.9 pt, titles at 82.9 pt; right column: 316.5 pt and 334.7 pt, of 612 pt), with a
 * margin for scans.
 */
const ADDENDA_COLUMNS = {
  L: { left: 0.085, right: 0.133, region: { right: 0.5 } },
  R: { left: 0.495, right: 0.544, region: { left: 0.5 } },
} as const;

/** Vertical center of a match's first-line words (a merged two-line word would pull it down). */
function firstLineCenter(m: Match): number {
  const minH = Math.min(...m.tokens.map((t) => t.box.height));
  const ordinary = m.tokens.filter((t) => t.box.height <= 1.3 * minH);
  return ordinary[0].box.top + ordinary[0].box.height / 2;
}

/**
 * Addenda — TREC 20-18 ¶22 "Addenda which are a part of this contract are (Check all applicable boxes)": the
 * names of the checked boxes in the form's order (left column, then right), then each line listed after a
 * checked "Other (list):". An empty array when the paragraph is found and nothing is checked. A box sits
 * level with its title's first line or up to a line lower (two- and three-line titles), so it is looked for
 * from 0.006 above to 0.0125 below the first line's center.
 */
export function readAddenda(ctx: TrecContext): ExtractedField<string[]> {
  const head = label(ctx, 'Addenda which are a part of this contract are', ctx.pages.p8);
  if (!head) return missing();
  const end = findPhrase(ctx.doc, 'CONSULT AN ATTORNEY BEFORE SIGNING', { page: head.page, after: head });
  const top = matchBox(head).top;
  const bottom = end ? matchBox(end).top : 1;
  const names: string[] = [];
  const sources: Token[][] = [head.tokens];
  const boxAt = (m: Match, col: 'L' | 'R') => {
    const cy = firstLineCenter(m);
    const c = ADDENDA_COLUMNS[col];
    return checkboxInArea(ctx.doc, m.page, { left: c.left, right: c.right, top: cy - 0.006, bottom: cy + 0.0125 }, ctx.selections);
  };
  for (const [name, phrase, col] of TREC_20_18_ADDENDA) {
    const m = findPhrase(ctx.doc, phrase, { page: head.page, region: { top, bottom, ...ADDENDA_COLUMNS[col].region } });
    if (!m) continue;
    const box = boxAt(m, col);
    if (box.state === 'unchecked') continue;
    names.push(name);
    sources.push([...box.tokens, ...m.tokens]);
  }
  const other = findPhrase(ctx.doc, 'Other (list):', { page: head.page, region: { top, bottom, left: 0.5 } });
  if (other && boxAt(other, 'R').state === 'checked') {
    // One title per line: the rest of the "Other (list):" row, then the right-column rows below it.
    const page = ctx.doc.pages.get(other.page)!;
    const otherTop = matchBox(other).top;
    const rowIdx = page.rowOf[other.end];
    const first = spanOf(ctx.doc, other.page, other.rawEnd, page.rowRaw[rowIdx][1], { left: 0.5 });
    const lines = [first];
    const endRow = end ? page.rowOf[end.start] : page.rows.length;
    // The form has four "Other" lines, about 0.0145 apart: read rows up to 0.06 below the caption.
    for (let r = rowIdx + 1; r < endRow; r++) {
      const [a, b] = page.rowRaw[r];
      if (page.rows[r].box.top < otherTop) continue;
      if (page.rows[r].box.top > otherTop + 0.06) break;
      lines.push(spanOf(ctx.doc, other.page, a, b, { left: 0.5 }));
    }
    for (const l of lines) {
      if ((l.text.match(/[A-Za-z0-9]/g) ?? []).length < 2) continue; // empty line or a stray mark
      names.push(l.text);
      sources.push(l.tokens);
    }
  }
  return found(names, sources, certaintyOf(head));
}

// ---------------------------------------------------------------------------------------------------------
// Broker information (page 10)
// ---------------------------------------------------------------------------------------------------------

/**
 * Broker fields — TREC 20-18 "BROKER INFORMATION" page, where each caption is printed under its blank:
 * buyerBrokerage = "Other Broker Firm", buyerAgent = "Associate's Name" (the other broker's associate, who
 * represents Buyer), listingBrokerage = "Listing Broker Firm", listingAgent = "Listing Associate's Name".
 */
export function readBrokers(ctx: TrecContext): Pick<ContractFields, 'buyerAgent' | 'buyerBrokerage' | 'listingAgent' | 'listingBrokerage'> {
  const head = label(ctx, 'BROKER INFORMATION', ctx.pages.p10);
  const out = { buyerAgent: missing<string>(), buyerBrokerage: missing<string>(), listingAgent: missing<string>(), listingBrokerage: missing<string>() };
  if (!head) return out;
  const region = (left: number, right: number): Region => ({ left, right, top: matchBox(head).top });
  const read = (phrase: string, left: number, right: number): ExtractedField<string> => {
    const m = findPhrase(ctx.doc, phrase, { page: head.page, region: region(left, right) });
    if (!m) return missing();
    const lic = findPhrase(ctx.doc, 'License No.', { page: head.page, after: m, region: region(left, right) });
    const stop = lic && ctx.doc.pages.get(head.page)!.rowOf[lic.start] === ctx.doc.pages.get(head.page)!.rowOf[m.end] ? matchBox(lic).left - 0.005 : right;
    const tokens = valueAbove(ctx.doc, m, { left: left + 0.005, right: stop, maxGap: 0.028 });
    const text = tokens.map((t) => t.text).join(' ').trim();
    return text ? found(text, [tokens], certaintyOf(head, m)) : missing();
  };
  out.buyerBrokerage = read('Other Broker Firm', 0, 0.49);
  out.buyerAgent = read('Associate’s Name', 0, 0.49);
  out.listingBrokerage = read('Listing Broker Firm', 0.49, 1);
  out.listingAgent = read('Listing Associate’s Name', 0.49, 1);
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Attached Third Party Financing Addendum
// ---------------------------------------------------------------------------------------------------------

/**
 * Financing deadline days — only from an attached TREC Third Party Financing Addendum (its "Buyer Approval"
 * paragraph: "… Buyer may give written notice to Seller within ____ days after the Effective Date …").
 * Missing whenever no such addendum page is in the document: never guessed.
 */
export function readFinancingDeadlineDays(ctx: TrecContext): ExtractedField<number> {
  const title = findPhrase(ctx.doc, 'THIRD PARTY FINANCING ADDENDUM', { errorRate: 0 });
  if (!title) return missing();
  // The contract's own ¶3B / ¶22 mention the addendum in mixed case; the addendum's title is upper case.
  const raw = ctx.doc.pages.get(title.page)!.raw.slice(title.rawStart, title.rawEnd);
  if (raw !== raw.toUpperCase()) return missing();
  const approval = findPhrase(ctx.doc, 'Buyer Approval', { page: title.page, after: title });
  if (!approval) return missing();
  const within = findPhrase(ctx.doc, 'written notice to Seller within', { page: title.page, after: approval });
  if (!within) return missing();
  const days = findPhrase(ctx.doc, 'days after the Effective Date', { page: title.page, after: within });
  if (!days) return missing();
  return daysField({ span: textBetween(ctx.doc, within, days), certainty: certaintyOf(title, approval, within, days) * 0.95 });
}

// ---------------------------------------------------------------------------------------------------------
// Form terms (printed wording used by key-date math)
// ---------------------------------------------------------------------------------------------------------

/**
 * The printed terms key-date math needs, read from this document's text (falling back to the official
 * blank's wording, {@link TREC_20_18_TERMS}): ¶5A "Within N days after the Effective Date" (earnest money and
 * Option Fee), ¶6B "Within N days after the Title Company receives a copy of this contract" (Commitment),
 * ¶5A(2)'s Saturday/Sunday/legal-holiday extension, and the page-11 CONTRACT RECEIPT date when filled.
 */
export function readTrecTerms(ctx: TrecContext): FormTerms {
  if (ctx.form.structure === 'option-in-23') return readOldTrecTerms(ctx);
  const p2 = pageString(ctx.doc, ctx.pages.p2).replace(/\s+/g, ' ');
  const em = /DELIVERY OF EARNEST MONEY AND OPTION FEE:\s*Within\s+(\d+)\s+days after the Effective/i.exec(p2);
  const cm = /COMMITMENT:\s*Within\s+(\d+)\s+days after the Title Company receives/i.exec(p2);
  const rule = findPhrase(ctx.doc, 'falls on a Saturday, Sunday, or legal holiday, the time to deliver the earnest money, Option Fee, or the additional earnest money', {
    page: ctx.pages.p2,
  });
  const receipt = readContractReceiptDate(ctx);
  return {
    earnestMoneyDays: em ? Number(em[1]) : TREC_20_18_TERMS.earnestMoneyDays,
    commitmentDays: cm ? Number(cm[1]) : TREC_20_18_TERMS.commitmentDays,
    weekendRule: TREC_20_18_TERMS.weekendRule,
    ...(receipt ? { titleCompanyReceiptDate: receipt } : {}),
    readFromDocument: { earnestMoneyDays: !!em, commitmentDays: !!cm, weekendRule: !!rule },
  };
}

/**
 * Printed terms of TREC 20-15 and earlier (option in ¶23): ¶5 "Within N days after the Effective Date, Buyer
 * must deliver $ … as earnest money", whose Saturday/Sunday/legal-holiday extension covers the earnest money
 * only; ¶23 "Buyer's agreement to pay Seller $ … (Option Fee) within N days after the Effective Date", with no
 * extension ("Time is of the essence for this paragraph"); ¶6B as in 20-18. Fallbacks: 3, 3 and 20 days.
 */
function readOldTrecTerms(ctx: TrecContext): FormTerms {
  const text = [...ctx.doc.pages.keys()].map((n) => pageString(ctx.doc, n)).join(' ').replace(/\s+/g, ' ');
  const em = /EARNEST MONEY:\s*Within\s+(\d+)\s+days after the Effective Date/i.exec(text);
  const of = /\(Option Fee\)\s*within\s+(\d+)\s+days after the Effective Date/i.exec(text);
  const cm = /COMMITMENT:\s*Within\s+(\d+)\s+days after the Title Company receives/i.exec(text);
  const rule = /If the last day to deliver the earnest money falls on a Saturday, Sunday, or legal holiday/i.test(text);
  const receipt = readContractReceiptDate(ctx);
  return {
    earnestMoneyDays: em ? Number(em[1]) : 3,
    optionFeeDays: of ? Number(of[1]) : 3,
    commitmentDays: cm ? Number(cm[1]) : 20,
    weekendRule: { paragraph: '¶5', appliesTo: ['EarnestMoneyDue'] },
    paragraphs: { ...TREC_PARAGRAPHS, earnestMoney: '¶5', optionFee: '¶23', option: '¶23' },
    ...(receipt ? { titleCompanyReceiptDate: receipt } : {}),
    readFromDocument: { earnestMoneyDays: !!em, commitmentDays: !!cm, weekendRule: rule },
  };
}

/** Date of the page-11 "CONTRACT RECEIPT" (Title Company's acknowledgment of the contract), when filled. */
function readContractReceiptDate(ctx: TrecContext): string | undefined {
  const head = label(ctx, 'CONTRACT RECEIPT', ctx.pages.p11);
  if (!head) return undefined;
  const cap = findPhrase(ctx.doc, 'Date', { page: head.page, after: head, region: { left: 0.7 } });
  if (!cap) return undefined;
  const tokens = valueAbove(ctx.doc, cap, { left: 0.7, right: 1, maxGap: 0.028 });
  return parseDate(tokens.map((t) => t.text).join(' ')) ?? undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Whole form
// ---------------------------------------------------------------------------------------------------------

/** Locates each paragraph group's page by its heading (a scan may carry extra pages); defaults to the form's. */
function locatePages(doc: DocText): TrecContext['pages'] {
  const at = (phrase: string, dflt: number) => findPhrase(doc, phrase)?.page ?? dflt;
  return {
    p1: at('ONE TO FOUR FAMILY RESIDENTIAL CONTRACT (RESALE)', 1),
    p2: at('EARNEST MONEY AND TERMINATION OPTION', 2),
    p3: at('SURVEY: The survey must be made by', 3),
    p5: at('The closing of the sale will be on or before', 5),
    p8: at('Addenda which are a part of this contract are', 8),
    p9: at('(BROKER: FILL IN THE DATE OF FINAL ACCEPTANCE.)', 9),
    p10: at('BROKER INFORMATION', 10),
    p11: at('CONTRACT RECEIPT', 11),
  };
}

/** The rules' context for a document: its geometric text, selection marks, and the page of each paragraph. */
export function trecContext(blocks: Block[], doc: DocText = buildDocText(blocks), form: TrecForm = DEFAULT_FORM): TrecContext {
  return { doc, form, selections: selectionElements(blocks), pages: locatePages(doc) };
}

/** The form assumed when none is given: TREC 20-18. */
const DEFAULT_FORM: TrecForm = { formType: TREC_20_18, family: '20', edition: '20-18', structure: 'option-in-5' };

/**
 * Runs every TREC rule over a document's blocks.
 * @param form the recognized TREC form (trec-forms.ts); default TREC 20-18
 * @returns the fields (missing ones null, with no warnings yet for required ones — see `flagRequired`), the
 *   form's printed terms for key-date math, and document-level warnings
 */
export function extractTrec2018(blocks: Block[], doc: DocText = buildDocText(blocks), form: TrecForm = DEFAULT_FORM): TrecExtraction {
  const ctx = trecContext(blocks, doc, form);
  const fields = emptyFields();
  const warnings: string[] = [];

  const sellers = readSellers(ctx);
  const buyers = readBuyers(ctx);
  fields.sellers = sellers.field;
  fields.buyers = buyers.field;
  const signed = readSignatureNames(ctx);
  for (const [field, names, span] of [
    [fields.buyers, signed.buyers, buyers.span],
    [fields.sellers, signed.sellers, sellers.span],
  ] as const) {
    const conflicts = checkPartyConflicts(field, names, span?.page ?? ctx.pages.p1);
    field.warnings.push(...conflicts);
  }

  const address = readAddress(ctx);
  const city = readCity(ctx);
  // "6604 Sycamore Bend Ct. Fort Worth" (an OCR'd comma read as a period): the street stops before ¶2A's city.
  if (address.street.value && city.value && !address.city.value) {
    const m = new RegExp(`^(.*?)[\\s,.;]+${city.value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'i').exec(address.street.value);
    if (m) {
      address.street.value = m[1];
      address.city = { ...address.street, value: city.value };
    }
  }
  fields.propertyStreet = address.street;
  fields.propertyState = address.state;
  fields.propertyZip = address.zip;
  // ¶2A's "City of" blank is the authority for the city; the address line's city is the fallback.
  fields.propertyCity = city.value !== null ? city : address.city;
  if (city.value !== null && address.city.value !== null && nameKey(city.value) !== nameKey(address.city.value)) {
    fields.propertyCity.warnings.push(
      `conflicting values: '${city.value}' (p${city.citations[0]?.page} City of) vs '${address.city.value}' (p${address.city.citations[0]?.page} address)`,
    );
  }
  fields.county = readCounty(ctx);
  fields.legalDescription = readLegalDescription(ctx);

  fields.salesPriceCash = readSalesPriceCash(ctx);
  fields.salesPriceFinanced = readSalesPriceFinanced(ctx);
  fields.salesPriceTotal = readSalesPriceTotal(ctx);
  const { salesPriceCash: a, salesPriceFinanced: b, salesPriceTotal: c } = fields;
  if (c.value !== null && a.value !== null && Math.abs((a.value ?? 0) + (b.value ?? 0) - c.value) > 0.005) {
    c.warnings.push(`conflicting values: ¶3C ${c.value} ≠ ¶3A ${a.value} + ¶3B ${b.value ?? 0}`);
  }
  fields.financingType = readFinancingType(ctx, fields.salesPriceFinanced, fields.salesPriceCash, fields.salesPriceTotal);

  fields.escrowAgent = readEscrowAgent(ctx);
  if (fields.escrowAgent.value === null) {
    const title = readTitleCompany(ctx);
    if (title.value !== null) fields.escrowAgent = { ...title, confidence: Math.round(title.confidence * 900) / 1000 };
  }
  fields.earnestMoney = readEarnestMoney(ctx);
  fields.optionFee = readOptionFee(ctx);
  fields.optionPeriodDays = readOptionPeriodDays(ctx);

  fields.surveyDays = readSurveyDays(ctx);
  fields.titleObjectionDays = readTitleObjectionDays(ctx);
  fields.hoa = readHoa(ctx);

  fields.closingDate = readClosingDate(ctx);
  fields.effectiveDate = readEffectiveDate(ctx);
  fields.addenda = readAddenda(ctx);
  fields.hoa = combineHoa(fields.hoa, fields.addenda);
  fields.financingType = financingFromAddenda(fields.financingType, fields.addenda);
  Object.assign(fields, readBrokers(ctx));
  fields.financingDeadlineDays = readFinancingDeadlineDays(ctx);

  return { fields, terms: readTrecTerms(ctx), warnings };
}
