/**
 * Plausibility checks for values read from documents the extractor does not recognize (generic reader,
 * Textract query answers). On an unknown form a value is only reported when it looks like what its field
 * holds; otherwise the field stays empty with a warning. Each check returns the parsed value or null.
 */
import { foldDigits, parseAddress, parseDays, splitNames, type AddressParts } from '#domain/extraction/normalize';
import { readDate } from '#domain/extraction/dates';
import type { FinancingType } from '#domain/extraction/types';

/** Words of contract prose that never occur in a party's name ("Buyer acknowledges Listing Firm"). */
const PROSE_WORDS = new Set(
  (
    'a an the of to by for with from in on at as or and is are be shall will may must not no any all this that these those ' +
    'buyer buyers seller sellers purchaser purchasers party parties agent agents broker brokers brokerage firm listing selling ' +
    'acknowledge acknowledges agree agrees agreed contract agreement property premises date dated signature signed sign print ' +
    'name names address phone email license title escrow closing price deposit money earnest paragraph section addendum ' +
    'initial initials page see above below herein hereby days day receipt receipts notice notices copy offer counter'
  ).split(' '),
);

/** Suffixes that make a name an entity or keep a personal suffix. */
const ENTITY = /\b(llc|l\.l\.c\.|inc|corp|corporation|company|co|ltd|lp|llp|trust|trustee|estate|bank|association|partners|holdings|properties|group)\.?$/i;

/**
 * Party names from a blank's text, or null when any part does not look like a name: each name 2–6 words of
 * letters (with . ' -), no contract prose word (see the list above), at least two letters per word except
 * initials; entity names ("Pine Ridge Holdings LLC") pass when they end in an entity word.
 */
export function plausibleNames(text: string): string[] | null {
  const cleaned = text.replace(/\s+/g, ' ').trim();
  if (!/[A-Za-z]{2}/.test(cleaned)) return null;
  const names = splitNames(cleaned);
  if (!names.length || names.length > 6) return null;
  for (const name of names) {
    const words = name.replace(/,/g, ' ').split(/\s+/).filter(Boolean);
    if (ENTITY.test(name) && words.length <= 8 && words.every((w) => /^[A-Za-z0-9.&'’-]+$/.test(w))) continue;
    if (words.length < 2 || words.length > 6) return null;
    for (const w of words) {
      if (!/^[A-Za-z][A-Za-z.'’-]*$/.test(w)) return null;
      if (PROSE_WORDS.has(w.toLowerCase().replace(/[.'’]/g, ''))) return null;
      if (!/^[A-Z]/.test(w)) return null;
      if (w.replace(/[.'’-]/g, '').length < 2 && !/^[A-Z]\.?$/.test(w)) return null;
    }
  }
  return names;
}

/**
 * The first amount written in `text` as a dollar figure — after a "$" (or OCR's "S"), with thousands groups, or
 * 4+ digits: "$450,000.00", "S450,000", "450000" — when it lies within `min`–`max` dollars; else null. A bare
 * "1" or "12" (a paragraph number) is not an amount. Digits misread as letters ("4Z5,OOO") are folded.
 */
export function plausibleMoney(text: string, min: number, max: number): number | null {
  const t = foldDigits(text.replace(/(^|[\s(:])S(?=\s?\d)/g, '$1$'));
  for (const m of t.matchAll(/(^|[\s(:])(\$\s?)?(\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?|\d+(?:\.\d{1,2})?)(?![\d,])/g)) {
    const digits = m[3];
    if (!m[2] && !digits.includes(',') && digits.split('.')[0].length < 4) continue;
    const v = Number(digits.replace(/,/g, ''));
    return Number.isFinite(v) && v >= min && v <= max ? Math.round(v * 100) / 100 : null;
  }
  return null;
}

/** A calendar date (see dates.ts `readDate`), or null. */
export function plausibleDate(text: string): string | null {
  const r = readDate(text);
  return r.value;
}

/** Words that make a text a company or office (title/escrow companies, closing attorneys). */
const COMPANY = /\b(title|escrow|abstract|closing|settlement|law|llc|l\.l\.c|inc|company|co|corp|group|services|attorneys?|pllc|pc|p\.c|llp|bank|trust)\b\.?/i;

/**
 * A company name: 1–10 words starting with a capital, containing a company word ({@link COMPANY}), and no
 * sentence words ("shall", "will", "Buyer", "Seller").
 */
export function plausibleCompany(text: string): string | null {
  const t = text.replace(/\s+/g, ' ').replace(/[,;:]+$/, '').trim();
  const words = t.split(' ');
  if (!t || words.length > 10 || !/^[A-Z0-9]/.test(t) || !COMPANY.test(t)) return null;
  if (words.some((w) => /^(shall|will|must|may|agree[sd]?|buyer'?s?|seller'?s?|purchaser|within|days?|deliver|deposit)$/i.test(w))) return null;
  return t;
}

/**
 * A US street address with a house number and a city, or null (state and zip optional but one must be read; the
 * street holds no comma and the city at least three letters, else the parts were not told apart).
 */
export function plausibleAddress(text: string): AddressParts | null {
  const a = parseAddress(text);
  if (!a.street || !/^\d+[A-Za-z]?\s+[A-Za-z]/.test(a.street) || !a.city || (!a.state && !a.zip)) return null;
  if (a.city.split(' ').length > 4 || /\d/.test(a.city)) return null;
  // A comma left in the street or a two-letter "city" means the parts were not found ("…, Traverse City" + "Ml"
  // for an OCR'd "MI"): the split is a guess, so nothing is reported.
  if (a.street.includes(',') || a.city.replace(/[^A-Za-z]/g, '').length < 3) return null;
  return a;
}

/** A number of days (1–365) written as a count ("10", "10 days", "ten (10) days"), or null. */
export function plausibleDays(text: string): number | null {
  if (!/\d/.test(text)) return null;
  const v = parseDays(text);
  return v !== null && v >= 1 && v <= 365 ? v : null;
}

/** A county name: 1–3 capitalized words ("Denver", "El Paso"), "County" dropped. */
export function plausibleCounty(text: string): string | null {
  const t = text.replace(/\s+county$/i, '').replace(/[,.]+$/, '').trim();
  return /^[A-Z][a-z]+(?: [A-Z][a-z]+){0,2}$/.test(t) ? t : null;
}

/** A mark that checks an option: "X", "✖", "☒", "■", "✔", "[X]", "(x)" as a word of its own. */
const CHECK_MARK = /^[[(]?(?:[xX✖✕✗✘☒☑■▪●✔✓])[\])]?$/;
/**
 * The same marks as a PDF text layer gives them from a ZapfDingbats font without a Unicode map (its character
 * codes: "4" ✔, "6" ✖, "8" ✘, "n" ■); read as marks only before an option letter ("6 A. NEW FINANCING").
 */
const DINGBAT_MARK = /^[468n]$/;
/** An empty box printed before an option: "☐", "□", "❏", "[ ]", "( )", a blank "___"; ZapfDingbats "o" "p" "q". */
const EMPTY_BOX = /^(?:[☐□❏❑○◯]|\[\s?\]|\(\s?\)|_+)$/;
const DINGBAT_BOX = /^[opq]$/;
/** An option letter after its box: "A.", "(b)", "2)". */
const OPTION_LETTER = /^\(?[A-Za-z0-9]{1,2}[.)]$/;

/** Financing words of an option's heading, most specific first. */
const FINANCING_WORDS: [RegExp, FinancingType][] = [
  [/assum/i, 'loan_assumption'],
  [/seller\s*financ|owner\s*financ|seller\s*carry|purchase[-\s]money/i, 'seller_financing'],
  [/\bcash\b/i, 'cash'],
  [/conventional|\bfha\b|\bva\b|usda|new\s*(?:loan|financing)|third[-\s]?party|mortgage|\bloan\b|financ/i, 'third_party'],
];

/**
 * The financing type of a checked option, or null: only a checked option counts. In a list of options each
 * printed after a box ("☐ Cash ✖ Conventional loan", "✖ A. NEW FINANCING: …  ☐ B. CASH: …"), the one whose
 * mark is a check ({@link CHECK_MARK}) is read by the first words of its heading (up to a ":" or 6 words); no
 * checked option, or checked options of two types, give null. Text with no box at all is a typed value and is
 * read only when it is short (≤ 4 words) and names one type ("Cash", "Conventional loan").
 */
export function checkedFinancing(text: string): FinancingType | null {
  const words = text.replace(/\[\s*\]|\(\s\)/g, '☐').replace(/\s+/g, ' ').trim().split(' ').filter(Boolean);
  const lettered = (i: number) => OPTION_LETTER.test(words[i + 1] ?? '');
  const checked = (i: number) => CHECK_MARK.test(words[i]) || (DINGBAT_MARK.test(words[i]) && lettered(i));
  const isMarkAt = (i: number) => checked(i) || EMPTY_BOX.test(words[i]) || (DINGBAT_BOX.test(words[i]) && lettered(i));
  if (!words.some((_, i) => isMarkAt(i))) {
    if (words.length > 4) return null;
    const types = new Set(FINANCING_WORDS.filter(([re]) => re.test(text)).map(([, t]) => t));
    return types.size === 1 ? [...types][0] : null;
  }
  const chosen = new Set<FinancingType>();
  words.forEach((_, i) => {
    if (!checked(i)) return;
    // "A." / "(b)" option letters after the mark are not the heading.
    let j = i + 1;
    if (lettered(i)) j++;
    const head: string[] = [];
    for (; j < words.length && head.length < 6 && !isMarkAt(j); j++) {
      head.push(words[j]);
      if (/:$/.test(words[j])) break;
    }
    const type = FINANCING_WORDS.find(([re]) => re.test(head.join(' ')))?.[1];
    if (type) chosen.add(type);
  });
  return chosen.size === 1 ? [...chosen][0] : null;
}
