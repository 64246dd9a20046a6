/**
 * zod (mini) → JSON Schema 2020-12 for the OpenAPI 3.1 document and the MCP tools, with zod 4's own
 * `z.toJSONSchema`, then made portable (`portable`). Named response resources (shared/api/responses/common.ts
 * `resources`) become `#/components/schemas/<id>` references; everything else is inlined.
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

const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', 'example', 'deprecated', 'readOnly', 'writeOnly']);

/**
 * Rewrites what zod emits into the form every JSON Schema consumer reads the same way:
 * - a nullable type `type: [x, 'null']` becomes `anyOf: [{type: x, …}, {type: 'null'}]` (strict MCP clients and
 *   OpenAPI 3.0-era tools refuse or misread type arrays; annotations stay beside the `anyOf`);
 * - zod's implicit safe-integer bounds (±(2^53 − 1) on every `z.int()`) are dropped: they constrain nothing, and
 *   schema samplers (Redoc's) show them as the sample value;
 * - `format: 'base64'` (no such format in JSON Schema 2020-12 §7.3) is left to `contentEncoding: 'base64'`
 *   (§8.3), so a validator in strict mode knows every format it meets.
 */
export function portable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(portable);
  if (!node || typeof node !== 'object') return node;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node)) out[k] = portable(v);
  if (out.minimum === -Number.MAX_SAFE_INTEGER) delete out.minimum;
  if (out.maximum === Number.MAX_SAFE_INTEGER) delete out.maximum;
  if (out.format === 'base64') {
    delete out.format;
    out.contentEncoding ??= 'base64';
  }
  if (Array.isArray(out.type) && out.type.includes('null')) {
    const types = (out.type as string[]).filter((t) => t !== 'null');
    const notes: JsonSchema = {};
    const branch: JsonSchema = {};
    for (const [k, v] of Object.entries(out)) (ANNOTATIONS.has(k) ? notes : branch)[k] = v;
    branch.type = types.length === 1 ? types[0] : types;
    if (Array.isArray(branch.enum)) branch.enum = (branch.enum as unknown[]).filter((v) => v !== null);
    return { ...notes, anyOf: [branch, { type: 'null' }] };
  }
  return out;
}

/**
 * Converts `schema`, moving the named resources it uses into `components` (shared by every call).
 * @param io `input` for requests (what a client may send: a digit string for an int32, a default optional),
 *   `output` for responses
 * @throws Error when two different schemas claim the same component name
 */
export function toJsonSchema(schema: z.ZodMiniType, io: 'input' | 'output', components: Record<string, JsonSchema>): JsonSchema {
  const converted = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any', metadata: resources }) as JsonSchema;
  const { $schema: _s, $defs, ...root } = portable(converted) as JsonSchema;
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
