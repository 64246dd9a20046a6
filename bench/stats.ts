/** Small statistics and formatting helpers for the benchmark (no dependencies). */

export interface LatencySummary {
  n: number;
  p50: number;
  p99: number;
  mean: number;
  min: number;
  max: number;
  /** Requests per second: `n / elapsedMs` when a wall-clock time is given, else `1000 / mean`. */
  rps: number;
}

/** Nearest-rank percentile of `values` (`p` in 0..100); NaN for an empty list. */
export function percentile(values: readonly number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/** The median (50th percentile, nearest rank). */
export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** p50/p99/mean/min/max of latency samples (ms) and the request rate; `elapsedMs` is the wall-clock time of a run. */
export function summarize(samplesMs: readonly number[], elapsedMs?: number): LatencySummary {
  const n = samplesMs.length;
  const mean = n ? samplesMs.reduce((a, b) => a + b, 0) / n : NaN;
  return {
    n,
    p50: percentile(samplesMs, 50),
    p99: percentile(samplesMs, 99),
    mean,
    min: n ? Math.min(...samplesMs) : NaN,
    max: n ? Math.max(...samplesMs) : NaN,
    rps: elapsedMs !== undefined ? (n / elapsedMs) * 1000 : 1000 / mean,
  };
}

/** Formats a number with `digits` decimals ("–" for NaN/undefined). */
export function fmt(value: number | undefined, digits = 2): string {
  return value === undefined || Number.isNaN(value) ? '–' : value.toFixed(digits);
}

/** Renders rows as an aligned plain-text table with a header rule (numbers right-aligned). */
export function table(headers: string[], rows: (string | number)[][]): string {
  const cells = rows.map((r) => r.map(String));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => (r[i] ?? '').length)));
  const numeric = headers.map((_, i) => cells.length > 0 && cells.every((r) => /^[-+]?[\d.,]+[×%]?$|^–$/.test(r[i] ?? '')));
  const line = (r: string[]) => r.map((c, i) => (numeric[i] ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ').trimEnd();
  return [line(headers), widths.map((w) => '─'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}
