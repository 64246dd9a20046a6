/**
 * The report of `bench/extraction.ts`: plain-text tables for stdout (per-contract seconds, per-field
 * precision/recall, per-document accuracy, totals, targets) and the same figures as JSON.
 */
import os from 'node:os';
import type { OcrMethod } from '#domain/extraction/types';
import { formatAccuracyTable, scoreComparisons, type FieldComparison } from '#domain/extraction/accuracy';
import { fieldStats } from './extraction-measure.ts';
import { fmt, median, table } from './stats.ts';

/** Targets of the issue: field accuracy (0–1) and seconds per 11-page contract. */
export const TARGETS = { textAccuracy: 0.98, imageAccuracy: 0.9, textSeconds: 5, imageSeconds: 90 };

/** One value set read one way (text layer or image-only). Times in seconds. */
export interface ContractResult {
  name: string;
  /** Median of `samplesSeconds` (one sample for image-only). */
  seconds: number;
  samplesSeconds: number[];
  analyzeSeconds: number;
  extractSeconds: number;
  /** Text layer: pdf.js getTextContent of every page, per run. Image-only: page 1 rendered + recognized. */
  baselineSeconds: number[];
  /** Text layer: seconds / median baseline. Image-only: seconds / (pageCount × baseline). */
  ratio: number;
  pageCount: number;
  formType: string;
  methods: Partial<Record<OcrMethod, number>>;
  /** True when repeated runs did not give the same fields. */
  unstable: boolean;
  exact: number;
  total: number;
  rows: FieldComparison[];
}

/** What {@link report} needs: the contracts of both kinds and facts about the run (`seconds` = whole run). */
export interface ReportInput {
  text: ContractResult[];
  image: ContractResult[];
  loadAvgStart: number;
  seconds: number;
  textRepeats: number;
  outFile: string;
}

const pct = (x: number) => (Number.isNaN(x) ? '–' : `${(100 * x).toFixed(1)}%`);
const verdict = (ok: boolean | undefined) => (ok === undefined ? 'not run' : ok ? 'meets' : 'misses');

function summary(kind: 'pdf-text' | 'tesseract', contracts: ContractResult[]) {
  const rows = contracts.flatMap((c) => c.rows);
  const samples = contracts.flatMap((c) => c.samplesSeconds);
  const problems = contracts.flatMap((c) => [
    ...(c.methods[kind] === c.pageCount ? [] : [`${c.name}: pages read as ${JSON.stringify(c.methods)}, expected all ${kind}`]),
    ...(c.formType === 'TREC 20-18' ? [] : [`${c.name}: form recognized as ${c.formType}`]),
    ...(c.unstable ? [`${c.name}: repeated runs gave different fields`] : []),
  ]);
  return {
    contracts: contracts.length,
    score: rows.length ? scoreComparisons(rows) : undefined,
    p50Seconds: median(samples),
    maxSeconds: samples.length ? Math.max(...samples) : NaN,
    secondsPerPage: median(contracts.map((c) => c.seconds / c.pageCount)),
    ratioP50: median(contracts.map((c) => c.ratio)),
    baselineP50: median(contracts.flatMap((c) => c.baselineSeconds)),
    problems,
  };
}

/** Renders the results: `stdout` (tables and the targets block) and `json` (everything, for `.bench/`). */
export function report(input: ReportInput): { stdout: string; json: unknown } {
  const { text, image } = input;
  const t = summary('pdf-text', text);
  const i = summary('tesseract', image);
  const out: string[] = [];
  out.push('Extraction benchmark — TREC 20-18 fixtures through the local OCR adapter and extractContract');
  out.push(`node ${process.version}, ${os.cpus().length} CPU(s) ${os.cpus()[0]?.model ?? ''}, load average ${fmt(input.loadAvgStart, 1)} at start / ${fmt(os.loadavg()[0], 1)} at end`);
  out.push(`Seconds = wall clock of analyze + extractContract on a built fixture. Text layer: ${input.textRepeats} runs per contract after one untimed warm-up contract (pdf.js load); image-only: 1 run each, tesseract worker started beforehand.`);
  out.push('');

  const timing = (label: string, cs: ContractResult[], baseline: string, ratio: string) =>
    table(
      [label, 'fields exact', 'seconds', 'analyze s', 'extract s', 's/page', baseline, ratio],
      cs.map((c) => [c.name, `${c.exact}/${c.total}`, fmt(c.seconds, 3), fmt(c.analyzeSeconds, 3), fmt(c.extractSeconds, 3), fmt(c.seconds / c.pageCount, 3), fmt(median(c.baselineSeconds), 3), `${fmt(c.ratio)}×`]),
    );
  out.push('Text layer, per contract (seconds = median of the runs; baseline = pdf.js getTextContent of every page, same PDF, interleaved)');
  out.push(timing('text-layer set', text, 'getTextContent s', 'ratio'));
  out.push('');
  if (image.length) {
    out.push('Image-only, per contract (baseline = page 1 rendered at 200 dpi + tesseract outside the adapter, just before; ratio = seconds / (pages × baseline))');
    out.push(timing('image-only set', image, 'page-1 OCR s', 'ratio'));
    out.push('');
  }

  const ts = fieldStats(text.map((c) => c.rows));
  const is = image.length ? fieldStats(image.map((c) => c.rows)) : undefined;
  out.push(`Per field over ${text.length} text-layer and ${image.length} image-only contracts: precision = exact non-null / non-null reported, recall = exact non-null / non-null expected ("–": none)`);
  out.push(
    table(
      ['field', 'text precision', 'text recall', 'image precision', 'image recall'],
      ts.map((f, k) => [f.field, pct(f.precision), pct(f.recall), is ? pct(is[k].precision) : '–', is ? pct(is[k].recall) : '–']),
    ),
  );
  out.push('');
  out.push(`Text layer, per document:\n${formatAccuracyTable(Object.fromEntries(text.map((c) => [c.name, c.rows])))}`);
  if (image.length) out.push(`\nImage-only, per document:\n${formatAccuracyTable(Object.fromEntries(image.map((c) => [c.name, c.rows])))}`);
  out.push('');

  const total = (label: string, s: ReturnType<typeof summary>) =>
    s.score
      ? `${label}: ${s.score.exact}/${s.score.total} fields exact = ${pct(s.score.accuracy)}, precision ${pct(s.score.precision)}, recall ${pct(s.score.recall)} (${s.contracts} contract${s.contracts === 1 ? '' : 's'})`
      : `${label}: not run`;
  out.push('Totals');
  out.push(total('  text layer', t));
  out.push(total('  image-only', i));
  const problems = [...t.problems.map((p) => `text layer ${p}`), ...i.problems.map((p) => `image-only ${p}`)];
  if (problems.length) out.push('', 'Warnings', ...problems.map((p) => `  ${p}`));
  out.push('');

  const targets = [
    { target: `text-layer field accuracy ≥ ${pct(TARGETS.textAccuracy)}`, measured: t.score ? pct(t.score.accuracy) : '–', ok: t.score && t.score.accuracy >= TARGETS.textAccuracy },
    { target: `image-only field accuracy ≥ ${pct(TARGETS.imageAccuracy)}`, measured: i.score ? pct(i.score.accuracy) : '–', ok: i.score && i.score.accuracy >= TARGETS.imageAccuracy },
    {
      target: `text-layer s/contract ≤ ${TARGETS.textSeconds} s`,
      measured: `p50 ${fmt(t.p50Seconds, 3)} s, max ${fmt(t.maxSeconds, 3)} s (${fmt(t.ratioP50)}× getTextContent ${fmt(t.baselineP50, 3)} s)`,
      ok: text.length ? t.maxSeconds <= TARGETS.textSeconds : undefined,
    },
    {
      target: `image-only s/contract ≤ ${TARGETS.imageSeconds} s`,
      measured: image.length ? `p50 ${fmt(i.p50Seconds, 1)} s, max ${fmt(i.maxSeconds, 1)} s (${fmt(i.secondsPerPage, 1)} s/page; ${fmt(i.ratioP50)}× pages × page-1 OCR ${fmt(i.baselineP50, 1)} s)` : '–',
      ok: image.length ? i.maxSeconds <= TARGETS.imageSeconds : undefined,
    },
  ];
  out.push('Targets (issue; reported, never asserted — seconds judged on the slowest contract)');
  out.push(table(['target', 'measured', 'result'], targets.map((x) => [x.target, x.measured, verdict(x.ok)])));
  out.push(`\nTook ${input.seconds.toFixed(1)} s. JSON: ${input.outFile}`);

  const json = {
    finishedAt: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    loadAvgStart: input.loadAvgStart,
    loadAvgEnd: os.loadavg()[0],
    seconds: input.seconds,
    textRepeats: input.textRepeats,
    targets: targets.map((x) => ({ ...x, result: verdict(x.ok) })),
    text: { summary: t, fields: ts, contracts: text },
    image: { summary: i, fields: is ?? [], contracts: image },
  };
  return { stdout: out.join('\n'), json };
}
