/**
 * Plausibility checks for values read from documents the extractor does not recognize (generic reader,
 * Textract query answers). On an unknown form a value is only reported when it looks like what its field
 * holds; otherwise the field stays empty with a warning. Each check returns the parsed value or null.
 */
import { foldDigits, parseAddress, parseDays, splitNames, type AddressParts } from '#domain/extraction/normalize';
import { readDate } from '#domain/extraction/dates';

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

/** A US street address with a house number and a city, or null (state and zip optional but one must be read). */
export function plausibleAddress(text: string): AddressParts | null {
  const a = parseAddress(text);
  if (!a.street || !/^\d+[A-Za-z]?\s+[A-Za-z]/.test(a.street) || !a.city || (!a.state && !a.zip)) return null;
  if (a.city.split(' ').length > 4 || /\d/.test(a.city)) return null;
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
