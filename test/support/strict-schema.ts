/**
 * What a strict JSON Schema consumer says about a schema: Ajv (the validator the MCP SDK ships with) for draft
 * 2020-12 with `strict: true` (unknown keywords and formats, ignored keywords, loose types and unions are errors),
 * the standard formats (ajv-formats), and its logger's warnings collected; plus the one portability rule Ajv lets
 * pass, a nullable written as a `type` array (`["boolean", "null"]`), which strict MCP clients flag.
 */
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/** Where in a schema a `type` is an array, as JSON pointers. */
export function typeArrays(node: unknown, at = '#'): string[] {
  if (Array.isArray(node)) return node.flatMap((v, i) => typeArrays(v, `${at}/${i}`));
  if (!node || typeof node !== 'object') return [];
  const own = Array.isArray((node as { type?: unknown }).type) ? [`${at}/type`] : [];
  return [...own, ...Object.entries(node).flatMap(([k, v]) => typeArrays(v, `${at}/${k}`))];
}

let sink: string[] = [];
let ajv: Ajv2020 | undefined;

/** One validator for every call (building one with the formats costs more than a compile); its logger writes to `sink`. */
function validator(): Ajv2020 {
  if (!ajv) {
    const note = (level: string) => (...args: unknown[]) => sink.push(`${level}: ${args.map(String).join(' ')}`);
    ajv = new Ajv2020({ strict: true, allErrors: true, logger: { log: () => undefined, warn: note('warning'), error: note('error') } });
    addFormats(ajv);
  }
  return ajv;
}

/** The errors and warnings of compiling `schema` strictly; [] when there are none. */
export function strictSchemaProblems(schema: object): string[] {
  const problems: string[] = [];
  sink = problems;
  try {
    validator().compile(schema);
  } catch (err) {
    problems.push(`error: ${(err as Error).message}`);
  }
  return [...problems, ...typeArrays(schema).map((p) => `non-portable nullable: type array at ${p}`)];
}
