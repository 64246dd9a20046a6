/**
 * `addressScore`: USPS abbreviations and directionals normalized, unit words dropped, numbers weighted 3,
 * a differing house number halves the score, so "1207 Oak" beats "Oak".
 */
import { describe, expect, it } from 'vitest';
import { addressScore, addressTokens, MIN_MATCH_SCORE } from '#domain/address-match';

const rank = (query: string, addresses: string[]) =>
  addresses.map((a) => ({ a, s: addressScore(query, a) })).sort((x, y) => y.s - x.s).map((x) => x.a);

describe('addressTokens', () => {
  it('spells out suffixes and directionals and drops unit words and punctuation', () => {
    expect(addressTokens('1207 N. Lamar Blvd., Apt 4')).toEqual(['1207', 'north', 'lamar', 'boulevard', '4']);
  });
});

describe('addressScore', () => {
  it('treats St and Street (and other USPS abbreviations) as the same word', () => {
    expect(addressScore('1207 Live Oak St', '1207 Live Oak Street, Austin, TX 78704')).toBe(1);
    expect(addressScore('n lamar blvd', '4400 North Lamar Boulevard, Austin')).toBe(1);
  });

  it('halves the score when the house number differs', () => {
    // query tokens 1207(3) live(1) oak(1) lane(1): 3 of 6 found = 0.5, halved.
    expect(addressScore('1207 Live Oak Ln', '1209 Live Oak Ln, Austin')).toBe(0.25);
    expect(addressScore('1207 Live Oak Ln', '1207 Live Oak Ln, Austin')).toBe(1);
  });

  it('does not take a zip code that is not first in the query for a house number', () => {
    expect(addressScore('Oak 78704', '1207 Live Oak Ln, Austin, TX 78704')).toBe(1);
  });

  it('gives a 4+ letter prefix of a word 0.7 of its weight, a shorter one nothing', () => {
    expect(addressScore('Congr', '300 Congress Ave, Austin')).toBe(0.7);
    expect(addressScore('Con', '300 Congress Ave, Austin')).toBe(0);
  });

  it('scores an empty query 0', () => {
    expect(addressScore('  ', '300 Congress Ave')).toBe(0);
  });

  it('ranks the house-number match first: "1207 Oak" beats a plain Oak address', () => {
    const addresses = ['500 Oak Ave, Austin', '1207 Live Oak Ln, Austin', '88 Pine St, Austin'];

    expect(rank('1207 Oak', addresses)[0]).toBe('1207 Live Oak Ln, Austin');
    expect(addressScore('1207 Oak', '500 Oak Ave, Austin')).toBeLessThan(MIN_MATCH_SCORE);
    expect(addressScore('1207 Oak', '88 Pine St, Austin')).toBe(0);
  });

  it('ranks the unit-qualified query to the right building', () => {
    const addresses = ['1300 S Congress Ave #4, Austin', '1300 Barton Springs Rd, Austin'];

    expect(rank('1300 South Congress Avenue Unit 4', addresses)).toEqual(addresses);
    expect(addressScore('1300 South Congress Avenue Unit 4', addresses[0])).toBe(1);
  });
});
