/**
 * Phone numbers in E.164 (ITU-T E.164: `+` country code and subscriber number, at most 15 digits), parsed with
 * libphonenumber-js. A number written without a country code is read as a US number (the service's market).
 *
 * Each function bundles only the metadata it needs, cut from the library's own sets (lib/phone-metadata.ts): telling
 * a textable number needs the "mobile" set's type patterns (~48 KB: a US number is fixed-line-or-mobile; toll-free,
 * premium and foreign landlines are not), normalizing any number only the "min" set's possible lengths (~24 KB).
 * The contacts group uses only the second, messaging only the first.
 */
import { parsePhoneNumberFromString, type MetadataJson } from 'libphonenumber-js/core';
import minMetadata from './phone-metadata/min.json' with { type: 'json' };
import mobileMetadata from './phone-metadata/mobile.json' with { type: 'json' };

/** The E.164 form of a textable (mobile, or fixed-line-or-mobile) number, or undefined when it is not one. */
export function toE164(input: string, defaultCountry: 'US' = 'US'): string | undefined {
  const parsed = parsePhoneNumberFromString(input.trim(), defaultCountry, mobileMetadata as unknown as MetadataJson);
  return parsed?.isValid() ? parsed.number : undefined;
}

/**
 * Any phone number (mobile or landline) in E.164; without a country code it is read as a US number. Checked by its
 * country's possible lengths.
 * @returns e.g. `+15125550147`, or undefined when it is not a phone number
 */
export function normalizePhone(input: string): string | undefined {
  const parsed = parsePhoneNumberFromString(input.trim(), 'US', minMetadata as unknown as MetadataJson);
  return parsed?.isPossible() ? parsed.number : undefined;
}
