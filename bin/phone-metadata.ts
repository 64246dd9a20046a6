/** `npx tsx bin/phone-metadata.ts`: writes the bundled phone-number metadata (lib/phone-metadata.ts) after a libphonenumber-js upgrade. */
import { writePhoneMetadata } from '../lib/phone-metadata.ts';

for (const file of writePhoneMetadata()) console.log(`wrote ${file}`);
