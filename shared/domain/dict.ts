/**
 * Maps keyed by caller-chosen names (override field names, header names, key-date types, issue paths).
 * A plain `{}` inherits `constructor`, `toString`, `hasOwnProperty`…, and assigning `__proto__` replaces its
 * prototype, so a lookup `map[name]` with such a name finds a function instead of nothing. These helpers read
 * and build such maps without prototype lookups (OWASP "Prototype Pollution Prevention Cheat Sheet").
 */

/** A new empty object without a prototype: every key, `__proto__` included, is an ordinary own key. */
export const dict = <V>(): Record<string, V> => Object.create(null) as Record<string, V>;

/** A prototype-less copy of `entries` (later duplicates win, as in `Object.fromEntries`). */
export function dictOf<V>(entries: Iterable<readonly [string, V]>): Record<string, V> {
  const out = dict<V>();
  for (const [k, v] of entries) out[k] = v;
  return out;
}

/** The own value of `key` in `map`; undefined for an absent key, never an inherited member. */
export const own = <V>(map: Readonly<Record<string, V>>, key: string): V | undefined => (Object.hasOwn(map, key) ? map[key] : undefined);
