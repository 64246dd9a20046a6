/**
 * Reading a calendar date out of the text of a contract blank, tolerant of what real documents do to it:
 * OCR letter errors in month names ("Auqust", "Jnne"), split month/day/year blanks ("08 / 29 / 2025",
 * "08 29 2025"), a year split by a printed century ("August 29, 20 25"), ordinals and "day of" wording
 * ("20th day of July, 2025"). The date itself is parsed by chrono-node (strict English grammar); this module
 * only repairs the text first and insists on a certain day, month and year.
 */
import * as chrono from 'chrono-node';
import { foldDigits } from '#domain/extraction/normalize';

const MONTH_NAMES = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
] as const;

/** Abbreviations chrono understands, with the month they stand for. */
const MONTH_ABBREVIATIONS = ['jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec'];

/** Levenshtein distance, stopping early above `max`. */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      rowMin = Math.min(rowMin, cur[j]);
    }
    if (rowMin > max) return max + 1;
    prev = cur;
  }
  return prev[b.length];
}

/**
 * The month a misread word stands for, or null: a word of 4+ letters within one edit of a full month name
 * with the same first letter ("Auqust" → "August", "Jnly" → "July", "0ctober" → "October"). Exact names and
 * abbreviations are returned as they are. Shorter words are never corrected ("Mav" stays).
 */
export function repairMonth(word: string): string | null {
  const w = word.toLowerCase().replace(/^0/, 'o').replace(/\.$/, '');
  if ((MONTH_NAMES as readonly string[]).includes(w) || MONTH_ABBREVIATIONS.includes(w)) return word[0] === '0' ? `O${word.slice(1)}` : word;
  if (w.length < 4 || !/^[a-z]+$/.test(w)) return null;
  const hit = MONTH_NAMES.find((m) => m[0] === w[0] && editDistance(w, m, 1) <= 1);
  return hit ? hit[0].toUpperCase() + hit.slice(1) : null;
}

/**
 * Rewrites a blank's text into a shape chrono reads: month words repaired, digits folded, "20th day of July,
 * 2025" → "July 20th, 2025", "August 29, 20 25" → "August 29, 2025", "08 29 2025" and "08 / 29 / 2025" →
 * "08/29/2025". Exported for tests.
 */
export function repairDateText(text: string): string {
  let t = text.replace(/[’']/g, '').replace(/[_]+/g, ' ').replace(/\s+/g, ' ').trim();
  t = t.replace(/[A-Za-z0][A-Za-z]{2,}\.?/g, (w) => repairMonth(w) ?? w);
  t = foldDigits(t);
  const month = '(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sept?(?:ember)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\\.?';
  // "20th day of July, 2025" / "20 day of July" → "July 20, 2025"
  t = t.replace(new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s*day\\s*of\\s*${month}\\s*,?`, 'i'), (_, d: string, m: string) => `${m} ${d},`);
  // A year split by the printed century: "July 20, 20 25" → "July 20, 2025".
  t = t.replace(new RegExp(`(${month}\\s+\\d{1,2}(?:st|nd|rd|th)?\\s*,?\\s*)20\\s+(\\d{2})\\b`, 'i'), (_, head: string, _m: string, yy: string) => `${head}20${yy}`);
  // Split numeric blanks: "08 29 2025", "08 / 29 / 2025", "08 - 29 - 25".
  t = t.replace(/(?<![\d/])(\d{1,2})\s*[/\-.\s]\s*(\d{1,2})\s*[/\-.\s]\s*(\d{4}|\d{2})(?![\d/])/, '$1/$2/$3');
  return t;
}

/** Result of {@link readDate}: the ISO date, or null with the reason. */
export type DateReading = { value: string; text: string } | { value: null; reason: 'no date' | 'no year' | 'several dates' | 'implausible year' };

const REFERENCE = new Date(Date.UTC(2000, 0, 1));

/**
 * Reads the one calendar date written in `text` (US month/day order for numeric dates).
 * @returns `{value: 'YYYY-MM-DD', text}` (the matched text after repair), or `{value: null, reason}` when there
 *   is no date, its year is not written, two different dates are present, or the year is outside 1990–2100.
 */
export function readDate(text: string): DateReading {
  const repaired = repairDateText(text);
  const results = chrono.en.strict.parse(repaired, REFERENCE).filter((r) => r.start.isCertain('month') && r.start.isCertain('day'));
  if (!results.length) return { value: null, reason: 'no date' };
  const iso = (r: chrono.ParsedResult) => {
    const y = r.start.get('year')!;
    return `${y}-${String(r.start.get('month')).padStart(2, '0')}-${String(r.start.get('day')).padStart(2, '0')}`;
  };
  const certain = results.filter((r) => r.start.isCertain('year'));
  if (!certain.length) return { value: null, reason: 'no year' };
  const values = [...new Set(certain.map(iso))];
  if (values.length > 1) return { value: null, reason: 'several dates' };
  const year = certain[0].start.get('year')!;
  if (year < 1990 || year > 2100) return { value: null, reason: 'implausible year' };
  return { value: values[0], text: certain[0].text };
}
