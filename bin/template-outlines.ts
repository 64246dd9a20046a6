/** `npx tsx bin/template-outlines.ts`: writes the system email templates' outlines (lib/template-outlines.ts) after one of them changes. */
import { writeFileSync } from 'node:fs';
import { SYSTEM_TEMPLATE_OUTLINES_FILE, systemTemplateOutlinesJson } from '../lib/template-outlines.ts';

writeFileSync(SYSTEM_TEMPLATE_OUTLINES_FILE, await systemTemplateOutlinesJson());
console.log(`wrote ${SYSTEM_TEMPLATE_OUTLINES_FILE}`);
