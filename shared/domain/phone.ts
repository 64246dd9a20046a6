/**
 * Phone numbers in E.164 (ITU-T E.164: `+` country code and subscriber number, at most 15 digits), parsed with
 * libphonenumber-js. A number written without a country code is read as a US number (the service's market).
 *
 * The library's "mobile" metadata is used: it validates mobile numbers exactly (a US number is fixed-line-or-mobile;
 * toll-free, premium and foreign landlines are not) at ~135 KB instead of the full set's ~195 KB, which keeps the
 * contacts and messaging Lambdas within their bundle budget. Other numbers are checked by length only.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/mobile';

/** The E.164 form of a textable (mobile, or fixed-line-or-mobile) number, or undefined when it is not one. */
export function toE164(input: string, defaultCountry: 'US' = 'US'): string | undefined {
  const parsed = parsePhoneNumberFromString(input.trim(), defaultCountry);
  return parsed?.isValid() ? parsed.number : undefined;
}

/**
 * Any phone number (mobile or landline) in E.164; without a country code it is read as a US number. Landlines
 * are checked by their country's possible lengths, mobiles exactly.
 * @returns e.g. `+15125550147`, or undefined when it is not a phone number
 */
export function normalizePhone(input: string): string | undefined {
  const parsed = parsePhoneNumberFromString(input.trim(), 'US');
  return parsed?.isPossible() ? parsed.number : undefined;
}
