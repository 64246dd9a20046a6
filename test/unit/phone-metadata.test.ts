/**
 * The phone-number metadata the Lambdas bundle (lib/phone-metadata.ts): the committed files are the derived sets
 * (regenerated after an upgrade), and parsing with them answers as the packaged sets do where their function reads
 * them (the mobile set: number, country, possible, valid; the min set: the number and whether it is possible), so
 * `normalizePhone` and `toE164` (shared/domain/phone.ts, shared/domain/textable-phone.ts) behave exactly as with the full "mobile" set they used before.
 * Generated inputs: a `+`, an international prefix (`011`) or none, a calling code of the metadata (one shared by
 * several countries half the time), up to 15 digits, and formatting noise (spaces, dashes, parentheses, an extension).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parsePhoneNumberFromString } from 'libphonenumber-js/core';
import { normalizePhone } from '#domain/phone';
import { toE164 } from '#domain/textable-phone';
import { bundledPhoneMetadata, packagedPhoneMetadata, PHONE_METADATA_FILES, type PhoneMetadataKind } from '#lib/phone-metadata';

const KINDS: PhoneMetadataKind[] = ['min', 'mobile'];
const mobile = packagedPhoneMetadata('mobile');
const callingCodes = Object.keys(mobile.country_calling_codes);
/** Calling codes several countries share (+1, +7, +44, …), where a number's country is told by its digits. */
const sharedCodes = callingCodes.filter((code) => mobile.country_calling_codes[code].length > 1);

/** Phone-number-like text. */
const phoneText = fc
  .tuple(
    fc.constantFrom('+', '011 ', ''),
    fc.oneof(fc.constantFrom(...callingCodes, ''), fc.constantFrom(...sharedCodes)),
    fc.stringMatching(/^[0-9]{2,15}$/),
    fc.constantFrom('', ' ext. 12', ' x7'),
    fc.boolean(),
  )
  .map(([prefix, code, digits, ext, noisy]) => {
    const body = noisy ? `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}` : digits;
    return `${prefix}${code}${prefix ? ' ' : ''}${body}${ext}`;
  });
/** US-looking numbers too, where most real input is. */
const usText = fc.stringMatching(/^[2-9][0-9]{2}[2-9][0-9]{6}$/).map((d) => `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`);
const anyText = fc.oneof(phoneText, usText);

/** What parsing answers, as far as the `kind` set is used: all of it for mobile, the number and possibility for min. */
const summary = (kind: PhoneMetadataKind, text: string, metadata: Parameters<typeof parsePhoneNumberFromString>[2]) => {
  const p = parsePhoneNumberFromString(text, 'US', metadata);
  if (!p) return undefined;
  return kind === 'mobile' ? { number: p.number, country: p.country, possible: p.isPossible(), valid: p.isValid(), ext: p.ext } : { number: p.number, possible: p.isPossible() };
};

describe('bundled phone metadata', () => {
  it.each(KINDS)('%s: the committed file is the derived set, at most 60 %% of the packaged one', (kind) => {
    const committed = readFileSync(PHONE_METADATA_FILES[kind], 'utf8');
    expect(JSON.parse(committed)).toEqual(bundledPhoneMetadata(kind));
    expect(committed.length).toBeLessThan(JSON.stringify(packagedPhoneMetadata(kind)).length * 0.6);
  });

  it.each(KINDS)('%s: parsing with it answers as with the packaged set, in what its function reads', (kind) => {
    const packaged = packagedPhoneMetadata(kind);
    const stripped = JSON.parse(readFileSync(PHONE_METADATA_FILES[kind], 'utf8'));
    fc.assert(
      fc.property(anyText, (text) => {
        expect(summary(kind, text, stripped)).toEqual(summary(kind, text, packaged));
      }),
      { seed: 2424, numRuns: 2000 },
    );
  });

  it('normalizePhone and toE164 answer as with the packaged mobile set', () => {
    const seen = { normalized: 0, refused: 0, textable: 0, notTextable: 0 };
    fc.assert(
      fc.property(anyText, (text) => {
        const p = parsePhoneNumberFromString(text, 'US', mobile);
        const normalized = normalizePhone(text);
        const e164 = toE164(text);
        expect(normalized).toBe(p?.isPossible() ? p.number : undefined);
        expect(e164).toBe(p?.isValid() ? p.number : undefined);
        seen[normalized ? 'normalized' : 'refused']++;
        seen[e164 ? 'textable' : 'notTextable']++;
      }),
      { seed: 2425, numRuns: 2000 },
    );
    // The comparison can fail: the inputs reach both answers of each function.
    expect(Math.min(...Object.values(seen))).toBeGreaterThan(50);
    expect(normalizePhone('(512) 555-0147')).toBe('+15125550147');
    expect(toE164('+44 20 7946 0958')).toBeUndefined();
    expect(normalizePhone('+44 20 7946 0958')).toBe('+442079460958');
    expect(toE164('+44 7911 123456')).toBe('+447911123456');
    expect(toE164('+1 800 555 0199')).toBeUndefined();
  });
});
