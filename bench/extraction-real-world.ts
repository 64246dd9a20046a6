/**
 * The real-world part of `npm run bench:extraction`: the labelled variations of test/fixtures/real-world read
 * through the local OCR adapter and `extractContract` (text layer for all; noisy image-only copies — rotated,
 * speckled, stamped — of the forms the extractor does not recognize and of CBS1, read by tesseract), scored separately for recognized and
 * unrecognized forms: precision, recall, and the count of **confident wrong values** (a field reported with
 * confidence ≥ 0.5 whose value is not the label). The core fields — closing date, price, Effective Date, buyers,
 * sellers — are checked on every variation.
 */
import type { ContractFieldName } from '#domain/extraction/types';
import { scoreComparisons, type FieldComparison } from '#domain/extraction/accuracy';
import { REAL_WORLD_FIXTURES, type RealWorldFixture } from '#test/fixtures/real-world/index';
import { noisyScanCopy } from '#test/fixtures/real-world/scan-noise';
import { runContract, type ContractRun } from './extraction-measure.ts';
import { fmt, table } from './stats.ts';

/** Confidence (0–1) at or above which a reported value counts as confident. */
export const CONFIDENT = 0.5;

/** Fields every variation must get right. */
export const CORE_FIELDS: readonly ContractFieldName[] = ['closingDate', 'salesPriceTotal', 'effectiveDate', 'buyers', 'sellers'];

/** One fixture read one way. */
export interface RealWorldResult {
  name: string;
  variation: string;
  copy: 'text layer' | 'image-only';
  recognized: boolean;
  expectedFormType: string;
  formType: string;
  seconds: number;
  rows: FieldComparison[];
  /** Fields reported with confidence ≥ {@link CONFIDENT} and a wrong value. */
  confidentWrong: { field: ContractFieldName; expected: unknown; actual: unknown; confidence: number }[];
  /** Core fields not exact. */
  coreMissed: ContractFieldName[];
}

function resultOf(fx: RealWorldFixture, copy: RealWorldResult['copy'], run: ContractRun): RealWorldResult {
  return {
    name: fx.name,
    variation: fx.variation,
    copy,
    recognized: fx.recognized,
    expectedFormType: fx.formType,
    formType: run.formType,
    seconds: run.seconds,
    rows: run.rows,
    confidentWrong: run.rows
      .filter((r) => r.actual !== null && !r.exact && r.confidence >= CONFIDENT)
      .map((r) => ({ field: r.field, expected: r.expected, actual: r.actual, confidence: r.confidence })),
    coreMissed: run.rows.filter((r) => CORE_FIELDS.includes(r.field) && !r.exact).map((r) => r.field),
  };
}

/**
 * Reads every real-world fixture from its text layer, then the noisy image-only copies (150 dpi, slight rotation,
 * speckle, a "RECEIVED" stamp: test/fixtures/real-world/scan-noise.ts) of `imageNames`.
 * @param log progress lines (stderr)
 */
export async function benchRealWorld(imageNames: readonly string[], log: (m: string) => void): Promise<RealWorldResult[]> {
  const out: RealWorldResult[] = [];
  for (const fx of REAL_WORLD_FIXTURES) {
    const pdf = await fx.build();
    const r = resultOf(fx, 'text layer', await runContract(pdf, fx.expected));
    log(`real-world: ${fx.name} (text layer): ${r.formType}, ${r.rows.filter((x) => x.exact).length}/${r.rows.length} exact, ${r.confidentWrong.length} confident wrong`);
    out.push(r);
  }
  for (const fx of REAL_WORLD_FIXTURES.filter((f) => imageNames.includes(f.name))) {
    const pdf = await noisyScanCopy(await fx.build(), 150);
    const r = resultOf(fx, 'image-only', await runContract(pdf, fx.expected));
    log(`real-world: ${fx.name} (image-only): ${r.formType}, ${r.rows.filter((x) => x.exact).length}/${r.rows.length} exact, ${r.confidentWrong.length} confident wrong, ${r.seconds.toFixed(1)} s`);
    out.push(r);
  }
  return out;
}

/** The fixtures whose image-only copies the bench reads: every unrecognized form, and CBS1. */
export const REAL_WORLD_IMAGE_SET: readonly string[] = REAL_WORLD_FIXTURES.filter((f) => !f.recognized || f.name.startsWith('cbs1')).map((f) => f.name);

const pct = (x: number) => (Number.isNaN(x) ? '–' : `${(100 * x).toFixed(1)}%`);

/** Summary of a group of results: precision/recall over all fields, confident-wrong count, core misses. */
export function summarizeGroup(results: RealWorldResult[]) {
  const score = results.length ? scoreComparisons(results.flatMap((r) => r.rows)) : undefined;
  return {
    contracts: results.length,
    precision: score?.precision ?? NaN,
    recall: score?.recall ?? NaN,
    exact: score?.exact ?? 0,
    total: score?.total ?? 0,
    confidentWrong: results.reduce((n, r) => n + r.confidentWrong.length, 0),
    coreMissed: results.reduce((n, r) => n + r.coreMissed.length, 0),
    formMisses: results.filter((r) => r.formType !== r.expectedFormType).map((r) => `${r.name}: ${r.formType}`),
  };
}

/** The report section: per-fixture table, per-group precision/recall, confident-wrong values listed. */
export function reportRealWorld(results: RealWorldResult[]): { stdout: string; json: unknown } {
  const out: string[] = [];
  out.push(`Real-world set (test/fixtures/real-world; confident = confidence ≥ ${CONFIDENT}; core = ${CORE_FIELDS.join(', ')})`);
  out.push(
    table(
      ['fixture', 'copy', 'variation', 'form read', 'exact', 'core', 'confident wrong', 'seconds'],
      results.map((r) => [
        r.name,
        r.copy,
        r.variation,
        r.formType === r.expectedFormType ? r.formType : `✗ ${r.formType}`,
        `${r.rows.filter((x) => x.exact).length}/${r.rows.length}`,
        r.coreMissed.length ? `✗ ${r.coreMissed.join(',')}` : '✓',
        String(r.confidentWrong.length),
        fmt(r.seconds, 2),
      ]),
    ),
  );
  const groups = {
    'recognized, text layer': results.filter((r) => r.recognized && r.copy === 'text layer'),
    'unrecognized, text layer': results.filter((r) => !r.recognized && r.copy === 'text layer'),
    'recognized, image-only': results.filter((r) => r.recognized && r.copy === 'image-only'),
    'unrecognized, image-only': results.filter((r) => !r.recognized && r.copy === 'image-only'),
  };
  const summaries = Object.fromEntries(Object.entries(groups).map(([k, v]) => [k, summarizeGroup(v)]));
  out.push('');
  out.push(
    table(
      ['group', 'contracts', 'precision', 'recall', 'fields exact', 'confident wrong', 'core misses'],
      Object.entries(summaries)
        .filter(([, s]) => s.contracts)
        .map(([k, s]) => [k, String(s.contracts), pct(s.precision), pct(s.recall), `${s.exact}/${s.total}`, String(s.confidentWrong), String(s.coreMissed)]),
    ),
  );
  const wrong = results.flatMap((r) => r.confidentWrong.map((w) => `  ${r.name} (${r.copy}) ${w.field}: ${JSON.stringify(w.actual)} at ${w.confidence}, expected ${JSON.stringify(w.expected)}`));
  const unrecognizedWrong = summaries['unrecognized, text layer'].confidentWrong + summaries['unrecognized, image-only'].confidentWrong;
  out.push('');
  out.push(`Confident wrong values on unrecognized forms: ${unrecognizedWrong}${wrong.length ? '' : ' (none at all)'}`);
  if (wrong.length) out.push(...wrong);
  return { stdout: out.join('\n'), json: { summaries, results } };
}
