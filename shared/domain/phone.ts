/**
 * Phone numbers in E.164 (ITU-T E.164: `+` country code and subscriber number, at most 15 digits), parsed with
 * libphonenumber-js. A number written without a country code is read as a US number (the service's market).
 *
 * Normalizing any number needs only the "min" set's possible lengths (~24 KB), cut from the library's own sets
 * (lib/phone-metadata.ts). Telling a textable number needs the "mobile" set's type patterns: that is
 * shared/domain/textable-phone.ts (`toE164`), which messaging loads lazily.
 *
 * Loaded with `import()` by shared/domain/contact-fields.ts when a contact gets a new phone; the contacts API group
 * ships it as a chunk beside its bundle (lib/bundling/lazy-modules.ts). As a lazily loaded module it imports nothing
 * of the project's own code (a chunk holds its own copy of what it imports).
 */
import { parsePhoneNumberFromString, type MetadataJson } from 'libphonenumber-js/core';
import minMetadata from './phone-metadata/min.json' with { type: 'json' };

/**
 * Any phone number (mobile or landline) in E.164; without a country code it is read as a US number. Checked by its
 * country's possible lengths.
 * @returns e.g. `+15125550147`, or undefined when it is not a phone number
 */
export function normalizePhone(input: string): string | undefined {
  const parsed = parsePhoneNumberFromString(input.trim(), 'US', minMetadata as unknown as MetadataJson);
  return parsed?.isPossible() ? parsed.number : undefined;
}
