/**
 * Phone numbers in E.164 (ITU-T E.164: `+` country code and subscriber number, at most 15 digits), parsed with
 * libphonenumber-js. A number written without a country code is read as a US number (the service's market).
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** The E.164 form of a textable (mobile, or fixed-line-or-mobile) number, or undefined when it is not one. */
export function toE164(input: string, defaultCountry: 'US' = 'US'): string | undefined {
  const parsed = parsePhoneNumberFromString(input.trim(), defaultCountry);
  if (!parsed || !parsed.isValid()) return undefined;
  const type = parsed.getType();
  // Landlines cannot receive texts; an unknown type (new ranges) gets the benefit of the doubt.
  if (type === 'FIXED_LINE' || type === 'TOLL_FREE' || type === 'PREMIUM_RATE' || type === 'VOICEMAIL') return undefined;
  return parsed.number;
}
