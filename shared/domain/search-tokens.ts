/**
 * Normalised search tokens for the prefix index of deals and contacts (shared/db/search-index.ts): a text becomes
 * lower-case words without diacritics, split on anything that is not a letter or digit; each word is indexed under
 * its prefixes, so a query word finds every item with a word starting with it, at a bounded read cost.
 */

/** Longest indexed prefix; a longer query word is looked up by its first `MAX_PREFIX` characters, then verified. */
export const MAX_PREFIX = 10;
/** Shortest indexed prefix: a shorter word is indexed (and found) whole only. */
export const MIN_PREFIX = 3;

/**
 * The words of `text`: Unicode NFKD with combining marks dropped (`Café` → `cafe`), lower-cased, split on every
 * character that is not a letter or digit, empty words dropped, order kept, duplicates removed.
 */
export function searchWords(text: string | null | undefined): string[] {
  if (!text) return [];
  const words = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  return [...new Set(words)];
}

/**
 * The index prefixes of `words`: for each word, its prefixes of `MIN_PREFIX` to `MAX_PREFIX` characters (a word
 * shorter than `MIN_PREFIX` is its own only prefix), deduplicated. `1207 Live Oak Ln` gives
 * `120 1207 liv live oak ln`.
 */
export function searchPrefixes(words: string[]): string[] {
  const out = new Set<string>();
  for (const w of words) {
    if (w.length <= MIN_PREFIX) out.add(w);
    else for (let n = MIN_PREFIX; n <= Math.min(w.length, MAX_PREFIX); n++) out.add(w.slice(0, n));
  }
  return [...out];
}

/**
 * The digit tokens of a phone number, so that a search by the full number, the national number or the local
 * number all find it: the national significant number (last 10 digits), the local number (last 7) and the line
 * number (last 4). `+15125550199` gives `5125550199 5550199 0199`.
 */
export function phoneTokens(phone: string | null | undefined): string[] {
  const digits = phone?.replace(/\D/g, '') ?? '';
  if (digits.length < 4) return digits ? [digits] : [];
  return [...new Set([digits.slice(-10), digits.slice(-7), digits.slice(-4)])];
}

/**
 * The digits a phone-like query is looked up by: a NANP number with its country code (`1` + 10 digits) loses the
 * country code, as the index holds national numbers.
 */
export const phoneQueryDigits = (digits: string): string => (digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits);

/**
 * The index prefix a query is looked up by: its longest word (the most selective one), cut to `MAX_PREFIX`
 * characters; undefined for a query without words.
 */
export function lookupPrefix(queryWords: string[]): string | undefined {
  const longest = queryWords.reduce<string | undefined>((best, w) => (best === undefined || w.length > best.length ? w : best), undefined);
  return longest?.slice(0, MAX_PREFIX);
}

/**
 * True when every query word is the start of one of the item's words (the match the index promises, checked on
 * the item's stored words after the lookup by one prefix). A query word shorter than `MIN_PREFIX` must still
 * start a word, so `oak c` finds `88 Live Oak Ct`.
 */
export function matchesWords(queryWords: string[], itemWords: string[]): boolean {
  return queryWords.every((q) => itemWords.some((w) => w.startsWith(q)));
}
