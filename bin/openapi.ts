/**
 * `npm run openapi`: writes docs/openapi.json (the OpenAPI 3.1 document generated from the operations registry)
 * and docs/reference.html (the static reference page that renders it). Prints what changed.
 */
import { writeGeneratedDocs } from '../lib/openapi/generated-files.ts';

for (const line of await writeGeneratedDocs()) console.log(line);
