/**
 * Calibration of extraction confidence for `npm run bench:extraction`: for each confidence band, the share of
 * reported values (non-null) that are right, per set (TREC text layer, TREC image-only, real-world text layer,
 * real-world image-only). The target (issue 26): no band at or above 0.5 below 95 % right, and no value at or
 * above 0.5 wrong. Reported, never asserted.
 */
import type { FieldComparison } from '#domain/extraction/accuracy';
import { table } from './stats.ts';

/** Band lower edges: [0, 0.5), [0.5, 0.6), …, [0.9, 1]. */
export const BANDS: readonly [number, number][] = [
  [0, 0.5],
  [0.5, 0.6],
  [0.6, 0.7],
  [0.7, 0.8],
  [0.8, 0.9],
  [0.9, 1.0001],
];

/** Share of right values that a band at or above 0.5 must reach. */
export const CALIBRATION_TARGET = 0.95;

/** One band of one set: values reported with a confidence in [low, high), and how many were right. */
export interface BandStats {
  low: number;
  high: number;
  values: number;
  right: number;
}

/** The bands of the reported values of `rows` (a value is right when it equals its label exactly). */
export function calibrate(rows: readonly FieldComparison[]): BandStats[] {
  return BANDS.map(([low, high]) => {
    const inBand = rows.filter((r) => r.actual !== null && r.confidence >= low && r.confidence < high);
    return { low, high: Math.min(1, high), values: inBand.length, right: inBand.filter((r) => r.exact).length };
  });
}

/** The calibration table of several sets (columns: band, then "right/values = %" per set) and the verdict. */
export function calibrationReport(sets: Record<string, readonly FieldComparison[]>): { stdout: string; json: Record<string, BandStats[]>; meets: boolean } {
  const json = Object.fromEntries(Object.entries(sets).map(([k, rows]) => [k, calibrate(rows)]));
  const names = Object.keys(json);
  const cell = (b: BandStats) => (b.values ? `${b.right}/${b.values} = ${((100 * b.right) / b.values).toFixed(1)}%` : '–');
  const body = BANDS.map(([low, high], i) => [`[${low.toFixed(1)}, ${high > 1 ? '1.0]' : `${high.toFixed(1)})`}`, ...names.map((n) => cell(json[n][i]))]);
  const failing = names.flatMap((n) => json[n].filter((b) => b.low >= 0.5 && b.values > 0 && b.right / b.values < CALIBRATION_TARGET).map((b) => `${n} [${b.low.toFixed(1)}, …)`));
  const wrongConfident = names.reduce((s, n) => s + json[n].filter((b) => b.low >= 0.5).reduce((x, b) => x + b.values - b.right, 0), 0);
  const out = [
    `Calibration: share of reported values that are right, per confidence band (target: every band ≥ 0.5 at ≥ ${(100 * CALIBRATION_TARGET).toFixed(0)}%)`,
    table(['confidence', ...names], body),
    `Wrong values at confidence ≥ 0.5, all sets: ${wrongConfident}. Bands below target: ${failing.length ? failing.join(', ') : 'none'}`,
  ];
  return { stdout: out.join('\n'), json, meets: failing.length === 0 };
}
