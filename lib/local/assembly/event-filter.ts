/**
 * Lambda event filtering for the assembly runtime's event-source mappings: a record reaches the function when it
 * matches any of the mapping's `FilterCriteria.Filters[].Pattern` (AWS Lambda Developer Guide, "Lambda event
 * filtering"). Supported: nested objects and arrays of exact values (strings, numbers, booleans, null), which is
 * what this stack's patterns use; a content-filter operator (`prefix`, `anything-but`, `numeric`, `exists`) throws
 * at start rather than filtering wrongly.
 */

/**
 * @param patterns the `Pattern` strings of the mapping (none: every record matches)
 * @returns a predicate over records
 * @throws Error on a pattern that is not JSON or uses an operator
 */
export function eventFilter(patterns: readonly string[]): (record: unknown) => boolean {
  if (!patterns.length) return () => true;
  const parsed = patterns.map((p) => {
    const pattern = JSON.parse(p) as Record<string, unknown>;
    check(pattern);
    return pattern;
  });
  return (record) => parsed.some((p) => matches(p, record));
}

function check(pattern: unknown): void {
  if (Array.isArray(pattern)) {
    for (const v of pattern) if (v !== null && typeof v === 'object') throw new Error(`event filter operator not supported: ${JSON.stringify(v)}`);
    return;
  }
  if (pattern && typeof pattern === 'object') for (const v of Object.values(pattern)) check(v);
}

function matches(pattern: unknown, value: unknown): boolean {
  if (Array.isArray(pattern)) return pattern.some((v) => v === value);
  if (!pattern || typeof pattern !== 'object') return false;
  if (!value || typeof value !== 'object') return false;
  return Object.entries(pattern).every(([k, p]) => matches(p, (value as Record<string, unknown>)[k]));
}
