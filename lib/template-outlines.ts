/**
 * The generated outlines of the system email templates (shared/domain/system-template-outlines.json, read by
 * shared/domain/system-email-templates.ts): Handlebars' parse of each subject and body reduced to its merge fields
 * and blocks (shared/domain/template-fields.ts `templateOutlines`). Written by `npx tsx bin/template-outlines.ts`;
 * test/unit/template-outlines.test.ts checks the committed file against it.
 */
import { fileURLToPath } from 'node:url';
import { systemTemplateTexts } from '#domain/system-email-templates';
import { templateOutlines } from '#domain/template-fields';

/** The committed file. */
export const SYSTEM_TEMPLATE_OUTLINES_FILE = fileURLToPath(new URL('../shared/domain/system-template-outlines.json', import.meta.url));

/** The file's content as it should be: system template id → `{subject, body}` outlines, one template a line. */
export async function systemTemplateOutlinesJson(): Promise<string> {
  const lines = await Promise.all(systemTemplateTexts().map(async (t) => `  ${JSON.stringify(t.id)}: ${JSON.stringify(await templateOutlines(t.subject, t.body))}`));
  return `{\n${lines.join(',\n')}\n}\n`;
}
