/** The search-token normaliser (shared/domain/search-tokens.ts) and the token items built from it (shared/db/search-index.ts). */
import { describe, expect, it } from 'vitest';
import { lookupPrefix, matchesWords, MAX_PREFIX, phoneQueryDigits, phoneTokens, searchPrefixes, searchWords } from '#domain/search-tokens';
import { contactSearchWords, contactTokenItems, dealTokenItems } from '#db/search-index';

describe('searchWords', () => {
  it('lower-cases, strips diacritics and splits on anything not a letter or digit, once per word', () => {
    expect(searchWords('1207 Live Oak Ln, Austin, TX 78704')).toEqual(['1207', 'live', 'oak', 'ln', 'austin', 'tx', '78704']);
    expect(searchWords('Café Niño-Peña  #4B')).toEqual(['cafe', 'nino', 'pena', '4b']);
    expect(searchWords('zoe@adams.example ZOE')).toEqual(['zoe', 'adams', 'example']);
    expect(searchWords('  ')).toEqual([]);
    expect(searchWords(null)).toEqual([]);
  });
});

describe('searchPrefixes', () => {
  it('indexes each word under its prefixes of 3 to 10 characters, a short word whole', () => {
    expect(searchPrefixes(['1207', 'live', 'oak', 'ln'])).toEqual(['120', '1207', 'liv', 'live', 'oak', 'ln']);
    const long = searchPrefixes(['congressional']);
    expect(long[0]).toBe('con');
    expect(long.at(-1)).toBe('congressio');
    expect(Math.max(...long.map((p) => p.length))).toBe(MAX_PREFIX);
  });
});

describe('phone tokens', () => {
  it('index national, local and line numbers, and a NANP query loses its country code', () => {
    expect(phoneTokens('+15125550199')).toEqual(['5125550199', '5550199', '0199']);
    expect(phoneTokens('12')).toEqual(['12']);
    expect(phoneTokens(null)).toEqual([]);
    expect(phoneQueryDigits('15125550199')).toBe('5125550199');
    expect(phoneQueryDigits('5550199')).toBe('5550199');
  });
});

describe('lookup and match', () => {
  it('looks a query up by its longest word (cut to the longest prefix) and checks every word starts an item word', () => {
    expect(lookupPrefix(['oak', 'c'])).toBe('oak');
    expect(lookupPrefix(['congressional', 'ave'])).toBe('congressio');
    expect(lookupPrefix([])).toBeUndefined();
    const words = searchWords('88 Live Oak Ct, Austin');
    expect(matchesWords(['oak', 'c'], words)).toBe(true);
    expect(matchesWords(['live', 'oak'], words)).toBe(true);
    expect(matchesWords(['oak', 'ln'], words)).toBe(false);
    expect(matchesWords(['ak'], words)).toBe(false);
  });
});

describe('token items', () => {
  it('a deal has one item per prefix of its address, in its own partition, newest-created order in GSI1', () => {
    const items = dealTokenItems('o1', { id: 't1', address: '88 Live Oak Ct, Austin, TX 78704', createdAt: '2026-01-01T00:00:00.000Z' });
    expect(items.map((i) => i.SK)).toContain('Q#aus');
    expect(new Set(items.map((i) => i.PK))).toEqual(new Set(['ORG#o1#TXN#t1#SEARCH']));
    expect(items.find((i) => i.SK === 'Q#live')).toMatchObject({ orgId: 'o1', transactionId: 't1', GSI1PK: 'ORG#o1#DEALQ#live', GSI1SK: '2026-01-01T00:00:00.000Z#t1', words: '88 live oak ct austin tx 78704' });
  });

  it('a contact is found by names, email words, company and phone numbers, sorted by name', () => {
    const c = { id: 'c1', type: 'person', name: 'Aaron Baker', firstName: 'Aaron', lastName: 'Baker', email: 'ab@prairie.example', company: 'Prairie Title', phone: '+15125550199' };
    expect(contactSearchWords(c)).toEqual(['aaron', 'baker', 'ab', 'prairie', 'example', 'title', '5125550199', '5550199', '0199']);
    const items = contactTokenItems('o1', c);
    expect(items.find((i) => i.SK === 'Q#555')).toMatchObject({ GSI1PK: 'ORG#o1#CONTACTQ#555', GSI1SK: 'aaron baker#c1', type: 'person', contactId: 'c1' });
  });
});
