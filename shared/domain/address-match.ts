/**
 * Ranks free-text property references against deal addresses for `GET /transactions/resolve`.
 * Normalizes USPS street suffixes and directionals (USPS Publication 28, Appendix C1/C2, common subset),
 * then scores token overlap with the house number weighted most, since "1207 Oak" should beat "Oak".
 */

const SUFFIXES = new Map(Object.entries({
  st: 'street', str: 'street', ave: 'avenue', av: 'avenue', blvd: 'boulevard', dr: 'drive', rd: 'road',
  ln: 'lane', ct: 'court', cir: 'circle', pl: 'place', pkwy: 'parkway', hwy: 'highway', trl: 'trail',
  ter: 'terrace', cv: 'cove', sq: 'square', way: 'way', xing: 'crossing', pt: 'point', lp: 'loop',
}));
const DIRECTIONS = new Map(Object.entries({ n: 'north', s: 'south', e: 'east', w: 'west', ne: 'northeast', nw: 'northwest', se: 'southeast', sw: 'southwest' }));
const UNIT = new Set(['apt', 'unit', 'ste', 'suite', '#']);

/** Lower-case tokens with suffixes and directionals spelled out and unit words dropped. */
export function addressTokens(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[.,#]/g, ' ')
    .split(/\s+/)
    .filter((t) => t && !UNIT.has(t))
    // Maps, not object lookups: a token such as `constructor` must stay itself.
    .map((t) => SUFFIXES.get(t) ?? DIRECTIONS.get(t) ?? t);
}

/**
 * Similarity of `query` to `address` in [0, 1]: the share of query tokens found in the address, where a
 * number token (house number, zip) weighs 3 and a word 1; a house number that differs halves the score.
 */
export function addressScore(query: string, address: string): number {
  const q = addressTokens(query);
  const a = new Set(addressTokens(address));
  if (!q.length) return 0;
  let got = 0;
  let total = 0;
  for (const t of q) {
    const w = /^\d+$/.test(t) ? 3 : 1;
    total += w;
    if (a.has(t)) got += w;
    else if (w === 1 && t.length >= 4 && [...a].some((x) => x.startsWith(t))) got += w * 0.7;
  }
  let score = got / total;
  const qNum = q.find((t) => /^\d+$/.test(t));
  const aNum = addressTokens(address).find((t) => /^\d+$/.test(t));
  if (qNum && aNum && q[0] === qNum && qNum !== aNum && !a.has(qNum)) score /= 2;
  return Math.round(score * 1000) / 1000;
}

/** Minimum score for a match to be returned. */
export const MIN_MATCH_SCORE = 0.34;
