/**
 * Free-form maps of a request (webhook `headers`, apply `overrides`): records with a bounded number of
 * entries. Their keys are caller-chosen names, so code reading them looks keys up as own properties only
 * (`#domain/dict`); the key `__proto__` is refused for every body by `#http/input-guard`.
 */
import * as z from '#api/zod';

const bounds = new WeakMap<object, number>();

/**
 * A record of at most `maxEntries` entries.
 * @param maxEntries inclusive bound on the number of keys
 */
export function boundedRecord<K extends z.core.$ZodRecordKey, V extends z.ZodMiniType>(key: K, value: V, maxEntries: number) {
  const schema = z
    .record(key, value)
    .check(z.refine((o: object) => Object.keys(o).length <= maxEntries, `must have at most ${maxEntries} entries`));
  bounds.set(schema, maxEntries);
  return schema;
}

/** The entry bound of a schema made by `boundedRecord` (undefined for any other schema). */
export const maxEntriesOf = (schema: object): number | undefined => bounds.get(schema);

/** A JSON scalar value of a free-form map: a string of at most `maxLength` characters, a finite number, a boolean or null. */
export const jsonScalar = (maxLength: number) => z.union([z.string().check(z.maxLength(maxLength)), z.number(), z.boolean(), z.null()]);
