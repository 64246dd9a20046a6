/**
 * Textable phone numbers in E.164 (ITU-T E.164: `+` country code and subscriber number, at most 15 digits), told
 * with libphonenumber-js and the "mobile" metadata set cut from the library's own (lib/phone-metadata.ts): a US
 * number is fixed-line-or-mobile and can receive texts; toll-free, premium and foreign landlines cannot. A number
 * written without a country code is read as a US number (the service's market). Any number, textable or not, is
 * shared/domain/phone.ts (`normalizePhone`).
 *
 * Loaded with `import()` by the messaging use cases and shared/domain/channel-availability.ts: the library and the
 * set are ~84 KB, which the messaging API group ships as a chunk beside its bundle (lib/bundling/lazy-modules.ts).
 * As a lazily loaded module it imports nothing of the project's own (a chunk holds its own copy of what it imports).
 */
import { parsePhoneNumberFromString, type MetadataJson } from 'libphonenumber-js/core';
import mobileMetadata from './phone-metadata/mobile.json' with { type: 'json' };

/**
 * The E.164 form of a textable (mobile, or fixed-line-or-mobile) number.
 * @param input any common format, e.g. `(512) 555-0147`, `+1 512 555 0147`
 * @returns e.g. `+15125550147`, or undefined when it is not a number that can receive texts
 */
export function toE164(input: string, defaultCountry: 'US' = 'US'): string | undefined {
  const parsed = parsePhoneNumberFromString(input.trim(), defaultCountry, mobileMetadata as unknown as MetadataJson);
  return parsed?.isValid() ? parsed.number : undefined;
}
