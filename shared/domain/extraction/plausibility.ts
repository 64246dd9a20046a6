/**
 * Plausibility rules applied to every reader's result (recognized forms, the generic reader, Textract answers,
 * text layer or OCR alike), after the form's own rules ran: a value that cannot be what its field holds is
 * dropped with a warning saying why, so it is never reported, however confident the reader was.
 *
 * - Parties (buyers, sellers): each name a short run of name-like words — 1–8 words (10 for an entity such as
 *   "… Family Trust"), at most 60 characters, starting with a letter, at most 6 names — and never contract prose:
 *   no clause words ("shall", "receiving", "agrees", "Buyer"), no parentheses, brackets or quotes, no digits
 *   outside an entity name.
 * - Agents and brokerages (escrowAgent, buyerAgent, listingAgent, buyerBrokerage, listingBrokerage): at most 10
 *   words and 80 characters, the same clause words and punctuation refused ("Any Closing Agent or Escrow Agent
 *   (collectively "Agent") receiving the").
 * - Dates (effectiveDate, closingDate): the year is written in the cited text — the four digits, the two digits
 *   ending a numeric date ("07/20/25") or a year split by the printed century ("20 25"). A date whose year was
 *   not written (a chrono default, a form revision mark "Rev. 1/11") is never emitted.
 * - Closing window: the Closing Date falls 0–{@link CLOSING_WINDOW_DAYS} days after the Effective Date (the
 *   date of final acceptance, i.e. the last signature). Outside it both dates are dropped: which one is wrong
 *   cannot be told. With no Effective Date to check it against, the Closing Date is kept at
 *   {@link UNANCHORED_CLOSING_FACTOR} of its confidence, with a warning.
 * - Earnest money and Option Fee are distinct labelled amounts: an earnest money equal to the Option Fee, or
 *   cited at the same place, is dropped; so is one not below the price. One under {@link SMALL_EARNEST_SHARE} of
 *   the price is kept at {@link SMALL_EARNEST_FACTOR} of its confidence, with a warning.
 *
 * Financing types are checked where they are read (only a checked option, see generic.ts `checkedFinancing` and
 * trec-20-18.ts `readFinancingType`): the rule needs the marks, which this pass does not see.
 */
import type { Citation, ContractFieldName, ContractFields, ExtractedField } from '#domain/extraction/types';
import { missing } from '#domain/extraction/fields';
import { foldDigits } from '#domain/extraction/normalize';

/** Longest plausible time from the Effective Date to closing, days (a year; new construction may need more). */
export const CLOSING_WINDOW_DAYS = 365;

/** Share of the price under which an earnest money is suspect (0.2 %), and its confidence factor then. */
export const SMALL_EARNEST_SHARE = 0.002;
export const SMALL_EARNEST_FACTOR = 0.6;

/** Confidence factor of a Closing Date with no Effective Date to check it against. */
export const UNANCHORED_CLOSING_FACTOR = 0.8;

/**
 * Words of contract prose that never occur in a party's or agent's name. Case-insensitive, except the lowercase
 * ones in {@link LOWERCASE_ONLY}, which are also given names ("May", "Will") when capitalized.
 */
const CLAUSE_WORDS = new Set(
  (
    'shall hereby herein hereof hereunder receiving received receives agrees agreed acknowledges acknowledge collectively ' +
    'about availability benefits pursuant whereas which whether provided including regarding notwithstanding within upon ' +
    'unless except deliver delivers delivered pay pays paid sell sells buy buys convey conveys obtain obtaining ' +
    'is are was were be been being has have must not contract agreement paragraph addendum protection ' +
    'any such said each either neither following described'
  ).split(' '),
);

/** Words that are clause words only in lowercase. */
const LOWERCASE_ONLY = new Set(['may', 'will', 'can', 'should']);

/** Words that make a party's name, not a person, so longer names and digits are fine. */
const PARTY_ENTITY = /\b(llc|l\.l\.c|inc|corp|corporation|company|co|ltd|lp|llp|trust|trustees?|estate|bank|association|partners|partnership|holdings|properties|group|foundation|church)\b/i;

/** Party-only prose: the roles themselves and closing vocabulary (a company may be "… Closing Services LLC"). */
const PARTY_ONLY_WORDS = new Set(['buyer', 'buyers', 'seller', 'sellers', 'purchaser', 'purchasers', 'agent', 'agents', 'broker', 'closing', 'escrow', 'title', 'property', 'premises']);

const QUOTES_OR_BRACKETS = /[()[\]{}"“”«»<>]/;

/** The clause word in `words`, if any. */
function clauseWord(words: string[], extra?: Set<string>): string | undefined {
  return words.find((w) => {
    const bare = w.replace(/[^A-Za-z’'-]/g, '');
    if (LOWERCASE_ONLY.has(bare)) return true;
    const lower = bare.toLowerCase();
    return CLAUSE_WORDS.has(lower) || (extra?.has(lower) ?? false);
  });
}

/**
 * Why a list of party names is not plausible, or null when it is (see the module docs for the rule).
 * @param names the names as split by the reader ("Cornelius Vandersloot, Trustee" is one name)
 */
export function partyNamesProblem(names: readonly string[]): string | null {
  if (!names.length) return null;
  if (names.length > 6) return `${names.length} names: a party list, not prose, has at most 6`;
  for (const name of names) {
    const entity = PARTY_ENTITY.test(name);
    const words = name.split(/[\s,]+/).filter(Boolean);
    if (QUOTES_OR_BRACKETS.test(name)) return `'${clip(name)}' holds parentheses or quotes`;
    if (name.length > (entity ? 90 : 60)) return `'${clip(name)}' is ${name.length} characters long`;
    if (words.length > (entity ? 10 : 8)) return `'${clip(name)}' has ${words.length} words`;
    if (!/^[A-Za-z]/.test(name)) return `'${clip(name)}' does not start with a letter`;
    if (!entity && /\d/.test(name)) return `'${clip(name)}' holds digits`;
    const w = clauseWord(words, entity ? undefined : PARTY_ONLY_WORDS);
    if (w) return `'${clip(name)}' holds the clause word '${w}'`;
  }
  return null;
}

/** Why an agent's, brokerage's or escrow agent's name is not plausible, or null when it is. */
export function agentNameProblem(text: string): string | null {
  const words = text.split(/\s+/).filter(Boolean);
  if (QUOTES_OR_BRACKETS.test(text)) return `'${clip(text)}' holds parentheses or quotes`;
  if (text.length > 80) return `'${clip(text)}' is ${text.length} characters long`;
  if (words.length > 10) return `'${clip(text)}' has ${words.length} words`;
  if (!/^[A-Za-z0-9]/.test(text)) return `'${clip(text)}' does not start with a letter or digit`;
  const w = clauseWord(words);
  return w ? `'${clip(text)}' holds the clause word '${w}'` : null;
}

/**
 * Why an ISO date's year is not written in its cited text, or null when it is: the four digits; the two digits
 * after a numeric date's separator ("7/20/25"); "20 25" split by a printed century. A revision mark
 * ("Rev. 1/11") in the cited text also refuses it.
 */
export function dateYearProblem(iso: string, citations: readonly Citation[]): string | null {
  const text = foldDigits(citations.map((c) => c.text).join(' '));
  if (!text.trim()) return null; // a reader that cites nothing (none today) is not second-guessed
  if (/\bRev(?:ision|\.|\s)\s*\d/i.test(text)) return `'${clip(text)}' is a form revision mark`;
  const year = iso.slice(0, 4);
  const compact = text.replace(/[\s,]+/g, '');
  if (compact.includes(year)) return null;
  if (new RegExp(`\\d{1,2}\\s*[/\\-.]\\s*\\d{1,2}\\s*[/\\-.]\\s*'?${year.slice(2)}(?!\\d)`).test(text)) return null;
  if (new RegExp(`['’]${year.slice(2)}(?!\\d)`).test(text)) return null;
  return `the year ${year} is not written in '${clip(text)}'`;
}

/** Whole days from `a` to `b` (ISO dates). */
const daysBetween = (a: string, b: string): number => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);

/** True when two citations share a page and their boxes overlap. */
const overlaps = (a: Citation, b: Citation): boolean =>
  a.page === b.page &&
  a.boundingBox.left < b.boundingBox.left + b.boundingBox.width &&
  b.boundingBox.left < a.boundingBox.left + a.boundingBox.width &&
  a.boundingBox.top < b.boundingBox.top + b.boundingBox.height &&
  b.boundingBox.top < a.boundingBox.top + a.boundingBox.height;

const clip = (s: string): string => (s.length > 60 ? `${s.slice(0, 57)}…` : s);

const AGENT_FIELDS: readonly ContractFieldName[] = ['escrowAgent', 'buyerAgent', 'listingAgent', 'buyerBrokerage', 'listingBrokerage'];

/**
 * Applies every rule of this module to a reader's fields, in place: an implausible value becomes an empty field
 * whose warning says why ("not plausible: …; not reported").
 * @returns the names of the fields dropped
 */
export function applyPlausibility(fields: ContractFields): ContractFieldName[] {
  const dropped: ContractFieldName[] = [];
  const drop = (name: ContractFieldName, why: string) => {
    (fields[name] as ExtractedField<unknown>) = missing([`not plausible: ${why}; not reported`]);
    dropped.push(name);
  };
  for (const name of ['buyers', 'sellers'] as const) {
    const v = fields[name].value;
    const why = v && partyNamesProblem(v);
    if (why) drop(name, why);
  }
  for (const name of AGENT_FIELDS) {
    const v = fields[name].value as string | null;
    const why = v && agentNameProblem(v);
    if (why) drop(name, why);
  }
  for (const name of ['effectiveDate', 'closingDate'] as const) {
    const f = fields[name];
    const why = f.value && dateYearProblem(f.value, f.citations);
    if (why) drop(name, why);
  }
  const eff = fields.effectiveDate.value;
  const close = fields.closingDate.value;
  if (eff && close) {
    const days = daysBetween(eff, close);
    if (days < 0 || days > CLOSING_WINDOW_DAYS) {
      const why = `Closing Date ${close} is ${days} days after the Effective Date ${eff}, outside 0–${CLOSING_WINDOW_DAYS}`;
      drop('closingDate', why);
      drop('effectiveDate', why);
    }
  } else if (close) {
    const f = fields.closingDate;
    f.confidence = Math.round(f.confidence * UNANCHORED_CLOSING_FACTOR * 1000) / 1000;
    f.warnings.push('no Effective Date to check the Closing Date against');
  }
  const em = fields.earnestMoney;
  const fee = fields.optionFee;
  if (em.value !== null && fee.value !== null) {
    if (em.value === fee.value) drop('earnestMoney', `earnest money ${em.value} is the Option Fee's amount`);
    else if (em.citations.some((a) => fee.citations.some((b) => overlaps(a, b)))) drop('earnestMoney', 'earnest money is cited where the Option Fee is');
  }
  const price = fields.salesPriceTotal.value;
  if (price !== null && fields.earnestMoney.value !== null && fields.earnestMoney.value >= price) {
    drop('earnestMoney', `earnest money ${fields.earnestMoney.value} is not below the price ${price}`);
  } else if (price !== null && fields.earnestMoney.value !== null && fields.earnestMoney.value < SMALL_EARNEST_SHARE * price) {
    // Kept (a token deposit happens) but not trusted: an option fee or a fee read in its place looks like this.
    const f = fields.earnestMoney;
    f.confidence = Math.round(f.confidence * SMALL_EARNEST_FACTOR * 1000) / 1000;
    f.warnings.push(`earnest money ${f.value} is under ${SMALL_EARNEST_SHARE * 100} % of the price ${price}`);
  }
  return dropped;
}
