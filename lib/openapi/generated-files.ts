/**
 * The generated self-description files under docs/: `openapi.json` and `reference.html`. `npm run openapi` and
 * `npm run docs` write them; test/unit/openapi-document.test.ts fails when the committed ones are stale.
 */
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadOperations } from '#lib/registry';
import { buildOpenApi } from '#lib/openapi/document';
import { referencePage } from '#lib/openapi/reference-page';

/** Absolute paths of the generated files. */
export const GENERATED = {
  openapi: fileURLToPath(new URL('../../docs/openapi.json', import.meta.url)),
  reference: fileURLToPath(new URL('../../docs/reference.html', import.meta.url)),
};

/** The files' expected contents, from the registry as it is now. */
export async function generatedDocs(): Promise<{ openapi: string; reference: string }> {
  const doc = buildOpenApi(await loadOperations());
  return { openapi: `${JSON.stringify(doc, null, 2)}\n`, reference: referencePage({ specUrl: 'openapi.json', title: doc.info.title }) };
}

/** Writes the files that differ. @returns one line per file saying whether it changed */
export async function writeGeneratedDocs(): Promise<string[]> {
  const want = await generatedDocs();
  return (Object.keys(GENERATED) as (keyof typeof GENERATED)[]).map((k) => {
    const file = GENERATED[k];
    const name = `docs/${file.split('/').pop()}`;
    if (existsSync(file) && readFileSync(file, 'utf8') === want[k]) return `${name}: up to date`;
    writeFileSync(file, want[k]);
    return `${name}: regenerated`;
  });
}
