/**
 * Measuring extraction against labelled expectations (tests, benchmarks): per-field exact-match comparison,
 * precision/recall, and a per-field accuracy table across documents.
 */
import type { ContractFieldName, ContractFields } from '#domain/extraction/types';
import { FIELD_NAMES } from '#domain/extraction/fields';

/** Expected value of every field (null = the field should be reported missing). */
export type ExpectedValues = { [K in ContractFieldName]: ContractFields[K]['value'] };

/** One field's comparison in one document. */
export interface FieldComparison {
  field: ContractFieldName;
  expected: unknown;
  actual: unknown;
  /** Values equal (deep, JSON) — null = null counts as exact. */
  exact: boolean;
  confidence: number;
}

/** Exact-match comparison of every field of `fields` with `expected`. */
export function compareFields(expected: ExpectedValues, fields: ContractFields): FieldComparison[] {
  return FIELD_NAMES.map((field) => {
    const actual = fields[field].value;
    const exp = expected[field];
    return { field, expected: exp, actual, exact: JSON.stringify(actual) === JSON.stringify(exp), confidence: fields[field].confidence };
  });
}

/**
 * Summary of comparisons: `accuracy` = exact fields / all fields; `precision` = correct values / values
 * reported; `recall` = correct values / values expected (non-null). All 0–1 (1 when the denominator is 0).
 */
export function scoreComparisons(rows: FieldComparison[]): { accuracy: number; precision: number; recall: number; exact: number; total: number } {
  const reported = rows.filter((r) => r.actual !== null);
  const expected = rows.filter((r) => r.expected !== null);
  const ratio = (n: number, d: number) => (d === 0 ? 1 : n / d);
  return {
    exact: rows.filter((r) => r.exact).length,
    total: rows.length,
    accuracy: ratio(rows.filter((r) => r.exact).length, rows.length),
    precision: ratio(reported.filter((r) => r.exact).length, reported.length),
    recall: ratio(expected.filter((r) => r.exact).length, expected.length),
  };
}

/**
 * A plain-text table: one row per field, one column per document ("✓" exact, "✗ got …" otherwise), and the
 * field's accuracy across documents; then a total line.
 */
export function formatAccuracyTable(byDocument: Record<string, FieldComparison[]>): string {
  const docs = Object.keys(byDocument);
  // Column width: the longest document name, at least 20; a wrong value is cut to fit its column.
  const width = Math.max(20, ...docs.map((d) => d.length));
  const clip = (v: unknown) => {
    const s = `✗ ${JSON.stringify(v)}`;
    return s.length > width ? `${s.slice(0, width - 1)}…` : s;
  };
  const lines = [`${'field'.padEnd(22)} ${docs.map((d) => d.padEnd(width)).join(' ')} accuracy`];
  let exact = 0;
  let total = 0;
  for (const field of FIELD_NAMES) {
    const cells = docs.map((d) => byDocument[d].find((r) => r.field === field)!);
    const ok = cells.filter((c) => c.exact).length;
    exact += ok;
    total += cells.length;
    const shown = cells.map((c) => (c.exact ? '✓' : clip(c.actual)).padEnd(width)).join(' ');
    lines.push(`${field.padEnd(22)} ${shown} ${((100 * ok) / cells.length).toFixed(0)}%`);
  }
  lines.push(`${'TOTAL'.padEnd(22)} ${docs.map(() => ''.padEnd(width)).join(' ')} ${exact}/${total} = ${((100 * exact) / Math.max(1, total)).toFixed(1)}%`);
  return lines.join('\n');
}
