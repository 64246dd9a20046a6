/**
 * Walks a zod (mini) schema tree and lists the leaves that accept unbounded input: strings without a maximum
 * length, arrays without a maximum count, records without `maxEntries`, and `unknown`/`any`. Used by
 * test/unit/schema-bounds.test.ts over every operation of the registry.
 */
import type * as z from '#api/zod';
import { maxEntriesOf } from '#api/schemas/free-form';

interface Def {
  type: string;
  format?: string;
  checks?: { _zod: { def: { check: string } } }[];
  shape?: Record<string, z.ZodMiniType>;
  innerType?: z.ZodMiniType;
  in?: z.ZodMiniType;
  out?: z.ZodMiniType;
  options?: z.ZodMiniType[];
  element?: z.ZodMiniType;
  keyType?: z.ZodMiniType;
  valueType?: z.ZodMiniType;
}

const defOf = (s: z.ZodMiniType) => (s as unknown as { _zod: { def: Def } })._zod.def;
const hasCheck = (d: Def, check: string) => (d.checks ?? []).some((c) => c._zod.def.check === check);

/** String formats whose pattern bounds the length by itself. */
const BOUNDED_FORMATS = new Set(['uuid']);

/** Paths (dotted, `[]` for array elements, `{}` for record values) of the unbounded leaves of `schema`. */
export function unboundedLeaves(schema: z.ZodMiniType, path = ''): string[] {
  const d = defOf(schema);
  const at = path || '(root)';
  switch (d.type) {
    case 'string':
      return hasCheck(d, 'max_length') || BOUNDED_FORMATS.has(d.format ?? '') ? [] : [`${at}: string without a maximum length`];
    case 'array':
      return [...(hasCheck(d, 'max_length') ? [] : [`${at}: array without a maximum length`]), ...unboundedLeaves(d.element!, `${path}[]`)];
    case 'record':
      return [
        ...(maxEntriesOf(schema) !== undefined ? [] : [`${at}: record without maxEntries`]),
        ...unboundedLeaves(d.keyType!, `${path}{key}`),
        ...unboundedLeaves(d.valueType!, `${path}{}`),
      ];
    case 'object':
      return Object.entries(d.shape!).flatMap(([k, v]) => unboundedLeaves(v, path ? `${path}.${k}` : k));
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return unboundedLeaves(d.innerType!, path);
    case 'pipe':
      return unboundedLeaves(d.in!, path);
    case 'union':
      return d.options!.flatMap((o) => unboundedLeaves(o, path));
    case 'unknown':
    case 'any':
      return [`${at}: ${d.type}`];
    default:
      // number, boolean, enum, literal, null, undefined, transform: bounded by type
      return [];
  }
}
