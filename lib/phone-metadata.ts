/**
 * The phone-number metadata the Lambdas bundle (shared/domain/phone-metadata/*.json), derived from libphonenumber-js's
 * own sets (issue 24: contacts and messaging bundle one each):
 * - `mobile` (for `toE164`, telling textable numbers) without number formats: formats are read only to format a
 *   number for display or as you type, never to parse it or to tell its type or validity (50 of its 99 KB);
 * - `min` (for `normalizePhone`, any number by its possible lengths) without formats and without the per-type
 *   patterns, which only tell a number's type and, among countries sharing a calling code, its country; E.164 and
 *   `isPossible` do not depend on either (58 of its 83 KB).
 * test/unit/phone-metadata.test.ts checks each against the packaged sets. Regenerate after upgrading
 * libphonenumber-js: `npx tsx bin/phone-metadata.ts`.
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { MetadataJson } from 'libphonenumber-js/core';

/** The sets used: `min` (possible lengths, for any number) and `mobile` (exact mobile patterns, for texting). */
export type PhoneMetadataKind = 'min' | 'mobile';

/** Where each set is written. */
export const PHONE_METADATA_FILES: Record<PhoneMetadataKind, string> = {
  min: fileURLToPath(new URL('../shared/domain/phone-metadata/min.json', import.meta.url)),
  mobile: fileURLToPath(new URL('../shared/domain/phone-metadata/mobile.json', import.meta.url)),
};

/** Indexes in a country's (or non-geographic entity's) compressed metadata array (metadata v4): formats, types. */
const FORMATS = 4;
const TYPES = 11;

/** What each bundled set leaves out (see the module comment). */
const LEFT_OUT: Record<PhoneMetadataKind, number[]> = { min: [FORMATS, TYPES], mobile: [FORMATS] };

/** The package's set as it ships (`libphonenumber-js/metadata.<kind>.json`). */
export function packagedPhoneMetadata(kind: PhoneMetadataKind): MetadataJson {
  return createRequire(import.meta.url)(`libphonenumber-js/metadata.${kind}.json`) as MetadataJson;
}

/**
 * The package's set with what `kind` leaves out (`LEFT_OUT`) replaced by 0, the compressed form's "none".
 * @throws Error when the metadata is not version 4 (the layout this strips)
 */
export function bundledPhoneMetadata(kind: PhoneMetadataKind): MetadataJson {
  const source = packagedPhoneMetadata(kind) as MetadataJson & { version: number; nonGeographic?: Record<string, unknown[]> };
  if (source.version !== 4) throw new Error(`libphonenumber-js metadata version ${source.version}: lib/phone-metadata.ts strips version 4`);
  const strip = (entries: Record<string, unknown>) => Object.fromEntries(Object.entries(entries).map(([k, a]) => [k, (a as unknown[]).map((x, i) => (LEFT_OUT[kind].includes(i) ? 0 : x))]));
  return { ...source, countries: strip(source.countries), ...(source.nonGeographic ? { nonGeographic: strip(source.nonGeographic) } : {}) } as MetadataJson;
}

/** Writes both sets. @returns the files written */
export function writePhoneMetadata(): string[] {
  return (Object.keys(PHONE_METADATA_FILES) as PhoneMetadataKind[]).map((kind) => {
    writeFileSync(PHONE_METADATA_FILES[kind], `${JSON.stringify(bundledPhoneMetadata(kind))}\n`);
    return PHONE_METADATA_FILES[kind];
  });
}
