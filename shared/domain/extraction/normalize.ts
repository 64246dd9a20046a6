/**
 * Value normalization for extracted contract fields: money → number of dollars, written dates →
 * `YYYY-MM-DD`, day counts → integers, party names → arrays, US addresses → street/city/state/zip. Each parser
 * returns null when the text does not hold a value of its kind; none of them guesses.
 */

/**
 * Folds digit-like OCR confusions inside numbers only: in a chunk of letters/digits/",./" that contains a
 * digit and whose letters are all confusable, O/o/Q/D→0, l/I/|/i/!→1, S/s/$ (not leading)→5, B→8, Z→2
 * ("4Z5,OOO.OO" → "425,000.00", "2O" → "20"). Chunks with other letters ("1st", "20thday") are left alone.
 */
export function foldDigits(text: string): string {
  return text.replace(/[A-Za-z0-9$|!,./-]+/g, (chunk) => {
    if (!/\d/.test(chunk) || /[A-PR-Za-hj-km-np-rt-z]/.test(chunk.replace(/[OQDISBZ]/g, ''))) return chunk;
    return chunk
      .replace(/[OoQD]/g, '0')
      .replace(/[lI|i!]/g, '1')
      .replace(/(?<=.)[Ss$]/g, '5')
      .replace(/B/g, '8')
      .replace(/Z/g, '2');
  });
}

/**
 * Parses a dollar amount: "425,000.00" → 425000, "$ 5,000" → 5000, "S250.00" (OCR'd "$") → 250. Takes the
 * first amount written with a "$" (so "$10,000.00 within 3 days" is 10000), else the last amount (a blank's
 * row may begin with dot leaders). Cents are kept (two decimals). Returns null when there are no digits.
 */
export function parseMoney(text: string): number | null {
  const marked = text.replace(/(^|[\s(])[Ss](?=\s?\d)/g, '$1$');
  const cleaned = foldDigits(marked.replace(/\$\s+(?=\d)/g, '$'));
  const re = /\d{1,3}(?:[,.\s]\d{3})*(?:[.,]\d{1,2})?(?!\d)|\d+(?:[.,]\d{1,2})?/g;
  const matches = [...cleaned.matchAll(re)];
  if (!matches.length) return null;
  const dollar = matches.find((m) => cleaned[(m.index ?? 0) - 1] === '$');
  let t = (dollar ?? matches[matches.length - 1])[0].replace(/\s/g, '');
  // A final ",dd" or ".dd" is cents; other separators group thousands.
  const cents = /[.,](\d{1,2})$/.exec(t);
  let whole = t;
  let frac = '';
  if (cents) {
    whole = t.slice(0, cents.index);
    frac = cents[1];
  }
  whole = whole.replace(/[.,]/g, '');
  if (!/^\d+$/.test(whole)) return null;
  t = frac ? `${whole}.${frac}` : whole;
  return Math.round(Number(t) * 100) / 100;
}

/** Parses a whole number of days from a blank ("5", "l0" → 10). Null when no digits or > 3650. */
export function parseDays(text: string): number | null {
  const m = /\d+/.exec(foldDigits(text));
  if (!m) return null;
  const n = Number(m[0]);
  return n <= 3650 ? n : null;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

const pad = (n: number) => String(n).padStart(2, '0');

/** A valid `YYYY-MM-DD` or null (rejects Feb 30 etc.). */
export function isoDate(year: number, month: number, day: number): string | null {
  if (!(year >= 1900 && year <= 2199 && month >= 1 && month <= 12 && day >= 1 && day <= 31)) return null;
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return null;
  return `${year}-${pad(month)}-${pad(day)}`;
}

/**
 * Parses a written date into `YYYY-MM-DD`. Accepts the TREC blanks' shapes — "20th day of July, 20 25"
 * (day, month, then the year's last two digits after the printed "20"), "August 29, 20 25" — and ordinary
 * ones: "July 20, 2025", "20 July 2025", "07/20/2025", "7-20-25", "2025-07-20". Two-digit years are 20yy.
 * Returns null when month, day or year is missing or the date does not exist.
 */
export function parseDate(text: string): string | null {
  const t = text.replace(/[’']/g, '').replace(/\s+/g, ' ').trim();
  if (!t) return null;
  const iso = /(\d{4})-(\d{1,2})-(\d{1,2})/.exec(foldDigits(t));
  if (iso) return isoDate(+iso[1], +iso[2], +iso[3]);
  const num = /(?<!\d)(\d{1,2})\s*[/.-]\s*(\d{1,2})\s*[/.-]\s*(\d{2}|\d{4})(?!\d)/.exec(foldDigits(t));
  if (num) {
    const y = num[3].length === 2 ? 2000 + +num[3] : +num[3];
    return isoDate(y, +num[1], +num[2]);
  }
  const monthRe = /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?/i;
  const mm = monthRe.exec(t);
  if (!mm) return null;
  const month = MONTHS.indexOf(mm[1].slice(0, 3).toLowerCase()) + 1;
  const rest = foldDigits(`${t.slice(0, mm.index)} ${t.slice(mm.index + mm[0].length)}`.replace(/day\s*of/gi, ' '));
  const groups = [...rest.matchAll(/\d+/g)].map((g) => g[0]);
  if (groups.length < 2) return null;
  const day = Number(groups[0]);
  const yearDigits = groups.slice(1).join('');
  let year: number;
  if (/^\d{4}$/.test(yearDigits)) year = Number(yearDigits);
  else if (/^\d{2}$/.test(yearDigits) && groups.length === 2) year = 2000 + Number(yearDigits);
  else return null;
  return isoDate(year, month, day);
}

/** Words that end a name rather than start one: ", Jr." stays with "John Smith". */
const NAME_SUFFIX = /^(jr|sr|ii|iii|iv|v|llc|l\.?l\.?c|inc|ltd|lp|l\.?p|llp|pllc|co|corp|trustee|md|phd|esq)\.?$/i;

/**
 * Splits a party line into names: on " and ", "&", ";", commas and line breaks, keeping suffixes ("Jr.",
 * "LLC", "Trustee") with the name before them; each name's first letter is capitalized.
 * "Ann Lee and David Lee" → ["Ann Lee", "David Lee"].
 */
export function splitNames(text: string): string[] {
  const parts = text
    .split(/\s*(?:\n|;|&|\band\b|,)\s*/i)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter((p) => p.length > 0)
    // A name starts with a capital (OCR sometimes drops it: "wendell Ostrowski"); particles inside stay as written.
    .map((p) => p.charAt(0).toUpperCase() + p.slice(1));
  const out: string[] = [];
  for (const p of parts) {
    if (out.length && NAME_SUFFIX.test(p)) out[out.length - 1] = `${out[out.length - 1]}, ${p}`;
    else out.push(p);
  }
  return out;
}

/** A comparison key for a name: lowercase letters and spaces only. */
export const nameKey = (name: string): string =>
  name
    .toLowerCase()
    .replace(/[^a-z ]/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * Capitalizes the first letter of each word of a place name ("collin" → "Collin", "El paso" → "El Paso"):
 * Texas county and city names capitalize every word, and OCR sometimes loses a capital. Other letters are
 * kept ("McKinney", "DeSoto").
 */
export const properCase = (name: string): string => name.replace(/(^|[\s-])([a-z])/g, (_, sep: string, ch: string) => sep + ch.toUpperCase());

/** US state codes (and DC), for address parsing. */
export const US_STATES = new Set(
  'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY'.split(
    ' ',
  ),
);

/** Parts of a one-line US address; missing parts are null. */
export interface AddressParts {
  street: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
}

/**
 * Splits "1234 Oak Hollow Dr, Austin, TX 78701" (or "… Austin TX 78701-1234", "… Austin, Texas 78701")
 * into street, city, state (2-letter code) and zip (5 digits or ZIP+4). The street is the text before the
 * first comma; the city the last comma-separated part before the state/zip.
 */
export function parseAddress(text: string): AddressParts {
  const t = text.replace(/\s+/g, ' ').trim();
  const out: AddressParts = { street: null, city: null, state: null, zip: null };
  if (!t) return out;
  let rest = t;
  const zip = /\b(\d{5}(?:-\d{4})?)\s*$/.exec(foldDigits(rest));
  if (zip) {
    out.zip = zip[1];
    rest = rest.slice(0, zip.index).replace(/[,\s]+$/, '');
  }
  const st = /(?:,\s*|\s)([A-Za-z]{2}|Texas)\.?$/.exec(rest);
  if (st && (US_STATES.has(st[1].toUpperCase()) || /^texas$/i.test(st[1]))) {
    out.state = /^texas$/i.test(st[1]) ? 'TX' : st[1].toUpperCase();
    rest = rest.slice(0, st.index).replace(/[,\s]+$/, '');
  }
  const parts = rest.split(',').map((p) => p.trim()).filter(Boolean);
  if (parts.length >= 2) {
    out.city = parts[parts.length - 1];
    out.street = parts.slice(0, -1).join(', ');
  } else if (parts.length === 1) out.street = parts[0];
  return out;
}
