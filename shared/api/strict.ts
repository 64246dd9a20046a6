/**
 * Strict request bodies (issue 25): a body field the operation does not define is refused with a 422 naming it,
 * instead of being dropped in silence (`{"title":"x","due":"2026-12-01"}` would create a task with no due date).
 * `schemasOf` (shared/api/operation.ts) applies {@link strictDeep} to every operation's body schema, so every
 * operation, and every nested object of its body (e.g. `propertyAddress`), is strict by construction and the
 * OpenAPI document says `additionalProperties: false` for them.
 *
 * Free-form maps opt out by what they are, not by a flag: a record (`boundedRecord` in
 * shared/api/schemas/free-form.ts: webhook `headers`, apply `overrides`, device `permissions`,
 * `documentFileNames`), a JSON value (`z.json()`, proposal `parameters`) or an object with an explicit catchall
 * (`z.looseObject`) is left as it is, with everything inside it.
 */
import * as z from '#api/zod';

/** The message of `fields` for a key the body's schema does not define. */
export const UNKNOWN_FIELD_MESSAGE = 'is not a field of this body';

type Def = Record<string, unknown> & { type: string };
const defOf = (schema: z.ZodMiniType): Def => schema._zod.def as unknown as Def;

const made = new WeakMap<z.ZodMiniType, z.ZodMiniType>();

/** Schemas held in a def under `key`: one schema, or an array of them. */
function walkProp(def: Def, key: string): Def | undefined {
  const value = def[key];
  if (Array.isArray(value)) {
    const next = value.map((v) => strictDeep(v as z.ZodMiniType));
    return next.some((v, i) => v !== value[i]) ? { ...def, [key]: next } : undefined;
  }
  if (!value || typeof value !== 'object' || !('_zod' in value)) return undefined;
  const next = strictDeep(value as z.ZodMiniType);
  return next !== value ? { ...def, [key]: next } : undefined;
}

/**
 * The same schema with every plain object in it strict (an unknown key fails with zod's `unrecognized_keys`
 * issue), through optional, nullable, default, array, tuple, union, intersection and pipe wrappers. A schema
 * with no plain object in it comes back as the very same instance (metadata kept).
 * @returns a schema of the same input and output types
 */
export function strictDeep<T extends z.ZodMiniType>(schema: T): T {
  const cached = made.get(schema);
  if (cached) return cached as T;
  const def = defOf(schema);
  let next: Def | undefined;
  switch (def.type) {
    case 'object': {
      if (def.catchall !== undefined) break; // looseObject, strictObject or an explicit catchall: as written
      const shape = def.shape as Record<string, z.ZodMiniType>;
      const strictShape = Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, strictDeep(v)]));
      next = { ...def, shape: strictShape, catchall: z.never() };
      break;
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      next = walkProp(def, 'innerType');
      break;
    case 'array':
      next = walkProp(def, 'element');
      break;
    case 'union':
      next = walkProp(def, 'options');
      break;
    case 'tuple': {
      const items = walkProp(def, 'items');
      next = def.rest ? walkProp(items ?? def, 'rest') ?? items : items;
      break;
    }
    case 'intersection': {
      const left = walkProp(def, 'left');
      next = walkProp(left ?? def, 'right') ?? left;
      break;
    }
    case 'pipe':
      next = walkProp(def, 'in');
      break;
    default:
      break; // record, lazy (z.json()), scalars, transforms: no fixed set of keys
  }
  const result = next ? (schema.clone(next as never) as T) : schema;
  made.set(schema, result);
  return result;
}
