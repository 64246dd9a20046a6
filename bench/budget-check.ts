/**
 * Issue 24's bundle and init budgets, measured (`checkBudgets`): bundles every API group (its generated entry,
 * lib/group-entries.ts) and every worker (`functions/<name>/handler.ts`, the extraction steps) as
 * lib/service-function.ts ships them (bench/bundles.ts), measures module init of each against the DynamoDB-only
 * baseline in fresh processes, in pairs (the baseline right before each import, `measureInitPaired`), and gives a
 * PASS/FAIL per function:
 *  - API groups: bundle ≤ 400 KB and init ≤ 1.3× baseline;
 *  - workers: bundle ≤ 600 KB (init reported).
 * A group with lazy modules (lib/bundling/lazy-modules.ts) is measured as shipped: the budgets apply to its main
 * bundle (what module init loads), and each chunk's size and import time in a fresh process (what the first request
 * on its path pays once per sandbox, measured in the same interleaved rounds) are printed beside it. Beside each
 * wall-clock ratio, the ratio of the import's CPU time (user + system) to the baseline's: it moves less with other
 * work on the machine, so a verdict near the budget can be told from noise. Used by `npm run bench:bundles`
 * (bench/budgets.ts) and `npm run bench` (bench/run.ts).
 */
import { readdirSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lambdaGroups as loadGroups, loadOperations } from '#lib/registry';
import { writeGroupEntries } from '#lib/group-entries';
import { STEP_HANDLER_FILES } from '#lib/extraction-pipeline';
import { bundlesXraySdk } from '../lib/service-function.ts';
import { lazyModulesOf } from '../lib/bundling/lazy-modules.ts';
import { bundleBaseline, bundleGroups, measureInitPaired, stopBundler } from './bundles.ts';
import { fmt, table } from './stats.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT_DIR = path.join(ROOT, '.bench');
/** Issue 24's budgets. */
export const BUDGETS = { apiKb: 400, workerKb: 600, apiInitRatio: 1.3 } as const;
/**
 * Workers built without the X-Ray SDK (`xraySdk: false` where they are defined: they hold the S3 client), by bundle
 * name; kept in step with lib/messaging-pipeline.ts (`S3_WORKERS`), lib/extraction-pipeline.ts, lib/oauth-server.ts,
 * lib/workspace-lifecycle.ts and lib/report-builder.ts.
 */
const WORKERS_WITHOUT_XRAY = new Set(['inbound-email', 'scheduled-send', 'public-links', 'message-send', 'document-uploaded', 'oauth', 'workspace-export', 'workspace-purge', 'report-pdf', 'report-zip', 'step-startOcr', 'step-collectBlocks', 'step-extractFields']);

const log = (msg: string) => process.stderr.write(`[bench:budgets] ${msg}\n`);

/** One function's verdict against `BUDGETS` (sizes in KB, times in ms, ratios against the baseline's init). */
export interface BudgetRow {
  name: string;
  kind: 'api' | 'worker';
  xraySdk: boolean;
  kb: number;
  initMs: number;
  initRatio: number;
  initCpuRatio: number;
  pass: boolean;
  sizeOk: boolean;
  initOk: boolean;
  topPackages: { name: string; bytes: number }[];
  chunks: { specifier: string; file: string; kb: number; importMs: number; importCpuMs: number }[];
}

/** What `checkBudgets` measured: every function's row, the baseline, and the printed section. */
export interface BudgetReport {
  baseline: { kb: number; initMs: number; initCpuMs: number };
  rows: BudgetRow[];
  text: string;
}

/**
 * Bundles every API group and worker as shipped and measures each one's init against the baseline in `runs` pairs
 * of fresh processes. Writes `.bench/budgets.json`.
 * @param runs init samples (pairs) per bundle
 * @throws when a bundle fails to build or a measured process exits non-zero
 */
export async function checkBudgets(runs: number): Promise<BudgetReport> {
  const groups = await loadGroups();
  const ops = await loadOperations();
  const entries = writeGroupEntries(ops, groups);
  const apiEntries = groups.map((name) => ({ name, entry: entries.get(name)!, xraySdk: bundlesXraySdk(), lazyModules: lazyModulesOf(name), kind: 'api' as const }));
  const workerDirs = readdirSync(path.join(ROOT, 'functions')).filter((d) => existsSync(path.join(ROOT, 'functions', d, 'handler.ts')));
  const workerEntries = [
    ...workerDirs.map((name) => ({ name, entry: path.join(ROOT, 'functions', name, 'handler.ts') })),
    ...Object.entries(STEP_HANDLER_FILES).map(([step, file]) => ({ name: `step-${step}`, entry: path.join(ROOT, file) })),
  ].map((w) => ({ ...w, xraySdk: !WORKERS_WITHOUT_XRAY.has(w.name), kind: 'worker' as const }));
  const all = [...apiEntries, ...workerEntries];
  const bundleDir = path.join(OUT_DIR, 'bundles');
  mkdirSync(bundleDir, { recursive: true });
  log(`bundling ${apiEntries.length} API groups, ${workerEntries.length} workers and the baseline`);
  const [baseline, bundles] = await Promise.all([bundleBaseline(ROOT, bundleDir), bundleGroups(ROOT, all, bundleDir)]);
  stopBundler();
  log(`module init: ${runs} pairs per bundle (the baseline, then the bundle, each in a fresh process)`);
  const env: NodeJS.ProcessEnv = { ...process.env, TABLE_NAME: 'bench', AWS_REGION: 'us-east-1', AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x' };
  for (const k of ['DYNAMODB_ENDPOINT', 'NODE_OPTIONS', 'AWS_LAMBDA_MAX_CONCURRENCY']) delete env[k];
  const withoutXray = new Set(bundles.filter((_b, i) => !all[i].xraySdk).map((b) => b.file));
  const chunkFiles = bundles.flatMap((b) => b.chunks.map((c) => c.file));
  const paired = await measureInitPaired(baseline.file, [...bundles.map((b) => b.file), ...chunkFiles], runs, (f) => (withoutXray.has(f) ? { ...env, POWERTOOLS_TRACE_ENABLED: 'false' } : env));
  const init = paired.byFile;
  const base = paired.baselineMs;
  const baseCpu = paired.baselineCpuMs;
  const rows: BudgetRow[] = bundles.map((b, i) => {
    const kb = b.bytes / 1024;
    const ratio = init.get(b.file)!.medianRatio;
    const api = all[i].kind === 'api';
    const sizeOk = kb <= (api ? BUDGETS.apiKb : BUDGETS.workerKb);
    const initOk = !api || ratio <= BUDGETS.apiInitRatio;
    const chunks = b.chunks.map((c) => ({ specifier: c.specifier, file: path.relative(ROOT, c.file), kb: c.bytes / 1024, importMs: init.get(c.file)!.medianMs, importCpuMs: init.get(c.file)!.medianCpuMs }));
    const initCpuRatio = init.get(b.file)!.medianCpuRatio;
    return { name: b.name, kind: all[i].kind, xraySdk: all[i].xraySdk, kb, initMs: init.get(b.file)!.medianMs, initRatio: ratio, initCpuRatio, pass: sizeOk && initOk, sizeOk, initOk, topPackages: b.topPackages, chunks };
  });
  const pf = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
  const out = [
    `Bundles and module init (${runs} fresh processes per bundle, each right after one of the baseline; ratio = median of the pairs' ratios; baseline = DynamoDB document client only: ${fmt(baseline.bytes / 1024, 1)} KB, ${fmt(base)} ms, ${fmt(baseCpu)} ms CPU)`,
    'The verdict is on the wall clock; CPU / baseline (user + system time of the import) is printed beside it, steadier when the machine is shared.',
    table(
      ['function', 'kind', 'X-Ray SDK', 'KB', 'budget', 'init ms', 'init / baseline', 'CPU / baseline', 'result', 'largest packages (KB)'],
      rows.map((r) => [
        r.name, r.kind, r.xraySdk ? 'yes' : 'no', fmt(r.kb, 1), `≤ ${r.kind === 'api' ? BUDGETS.apiKb : BUDGETS.workerKb} KB${r.kind === 'api' ? `, ≤ ${BUDGETS.apiInitRatio}×` : ''}`,
        fmt(r.initMs), `${fmt(r.initRatio)}×`, `${fmt(r.initCpuRatio)}×`, pf(r.pass), r.topPackages.map((p) => `${p.name} ${fmt(p.bytes / 1024, 0)}`).join(', '),
      ]),
    ),
    `${rows.filter((r) => r.pass).length} of ${rows.length} within budget.`,
    ...lazyChunkLines(rows),
  ];
  const baselineInfo = { kb: baseline.bytes / 1024, initMs: base, initCpuMs: baseCpu };
  writeFileSync(path.join(OUT_DIR, 'budgets.json'), `${JSON.stringify({ baseline: baselineInfo, budgets: BUDGETS, functions: rows }, null, 2)}\n`);
  return { baseline: baselineInfo, rows, text: out.join('\n') };
}

/** The lazy chunks, one line each: size and import time (median, fresh process), or nothing when there are none. */
function lazyChunkLines(rows: { name: string; kb: number; chunks: { specifier: string; kb: number; importMs: number; importCpuMs: number }[] }[]): string[] {
  const withChunks = rows.filter((r) => r.chunks.length);
  if (!withChunks.length) return [];
  return [
    '',
    'Lazy chunks (lib/bundling/lazy-modules.ts): loaded by the first request that needs one, once per sandbox; import = median in a fresh process',
    table(
      ['function', 'main KB', 'chunk', 'chunk KB', 'import ms', 'import CPU ms', 'main + chunks KB'],
      withChunks.flatMap((r) => r.chunks.map((c) => [r.name, fmt(r.kb, 1), c.specifier, fmt(c.kb, 1), fmt(c.importMs), fmt(c.importCpuMs), fmt(r.kb + r.chunks.reduce((t, x) => t + x.kb, 0), 1)])),
    ),
  ];
}

