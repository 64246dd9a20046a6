/**
 * zod (mini) → JSON Schema 2020-12 for the OpenAPI 3.1 document, with zod 4's own `z.toJSONSchema`. Named
 * response resources (shared/api/responses/common.ts `resources`) become `#/components/schemas/<id>` references;
 * everything else is inlined.
 */
import * as z from '#api/zod';
import { resources } from '#api/responses/common';

/** A JSON Schema object (2020-12, OpenAPI 3.1's dialect). */
export type JsonSchema = Record<string, unknown>;

const COMPONENT_REF = '#/components/schemas/';

function rewriteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (node && typeof node === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) out[k] = k === '$ref' && typeof v === 'string' ? v.replace('#/$defs/', COMPONENT_REF) : rewriteRefs(v);
    return out;
  }
  return node;
}

/**
 * Converts `schema`, moving the named resources it uses into `components` (shared by every call).
 * @param io `input` for requests (what a client may send: a digit string for an int32, a default optional),
 *   `output` for responses
 * @throws Error when two different schemas claim the same component name
 */
export function toJsonSchema(schema: z.ZodMiniType, io: 'input' | 'output', components: Record<string, JsonSchema>): JsonSchema {
  const converted = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any', metadata: resources }) as JsonSchema;
  const { $schema: _s, $defs, ...root } = converted;
  for (const [name, def] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
    const { id: _id, ...body } = rewriteRefs(def) as JsonSchema;
    const existing = components[name];
    if (existing && JSON.stringify(existing) !== JSON.stringify(body)) throw new Error(`component schema ${name} is defined two ways`);
    components[name] = body;
  }
  // A named resource converted as the whole schema may come back inline (plus its id): refer to it instead.
  const named = resources.get(schema);
  if (named && !('$ref' in root)) {
    const { id: _id, ...body } = rewriteRefs(root) as JsonSchema;
    components[named.id] = body;
    return { $ref: COMPONENT_REF + named.id };
  }
  return rewriteRefs(root) as JsonSchema;
}

/** True when a body schema accepts `undefined` (no body at all). */
export const isOptionalBody = (schema: z.ZodMiniType): boolean => (schema as unknown as { _zod: { optin?: string } })._zod.optin === 'optional';
