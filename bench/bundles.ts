/**
 * Bundle size and module-init time of each Lambda group's and webhook worker's handler, beside a baseline bundle
 * that holds only a DynamoDB document client. Bundled with esbuild's JS API with the settings `lib/service-function.ts`
 * ships (ESM, node22, minified, source map without sources, `mainFields` module-first, the `require` shim
 * banner, AWS SDK bundled, the same aliases: X-Ray SDK left out where the function is built without it). A function
 * with lazy modules (lib/bundling/lazy-modules.ts) is built as shipped: the main bundle with them external, each
 * chunk beside it in `lazy/`, and the package.json that maps their specifiers.
 */
import { bundlingAliases } from '../lib/service-function.ts';
import { assetPackageJson, chunkBuildOptions, lazyChunks } from '../lib/bundling/lazy-modules.ts';
import { execFile } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build, stop, type BuildOptions, type Metafile } from 'esbuild';
import { median } from './stats.ts';

const run = promisify(execFile);

/** The banner the functions ship with: lets the ESM bundle load CommonJS code that calls `require`. */
export const REQUIRE_BANNER = "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

const BASELINE_SOURCE = `
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
export const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
`;

export interface BundleInfo {
  name: string;
  file: string;
  bytes: number;
  /** The three largest npm packages in the bundle (bytes of output they contribute). */
  topPackages: { name: string; bytes: number }[];
  /** Its lazy chunks (none for most), each loaded on first use of its specifier. */
  chunks: ChunkInfo[];
}

/** One lazy chunk of a bundle. */
export interface ChunkInfo {
  /** e.g. `#domain/html-to-text` */
  specifier: string;
  /** e.g. `<outDir>/messaging/lazy/html-to-text.mjs` */
  file: string;
  bytes: number;
}

const common = (outfile: string, xraySdk = true, external: string[] = []): BuildOptions => ({
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  minify: true,
  sourcemap: 'external',
  sourcesContent: false,
  mainFields: ['module', 'main'],
  banner: { js: REQUIRE_BANNER },
  // As lib/service-function.ts ships them: the environment credential provider only, X-Ray SDK where it fits.
  alias: bundlingAliases(xraySdk),
  external,
  outfile,
  metafile: true,
  logLevel: 'silent',
});

function outputOf(meta: Metafile, outfile: string) {
  return Object.entries(meta.outputs).find(([f]) => path.resolve(f) === path.resolve(outfile))?.[1];
}

function topPackages(meta: Metafile, outfile: string): BundleInfo['topPackages'] {
  const out = outputOf(meta, outfile);
  const byPkg = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(out?.inputs ?? {})) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
    const name = m ? m[1] : '(project)';
    byPkg.set(name, (byPkg.get(name) ?? 0) + bytesInOutput);
  }
  return [...byPkg].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes).slice(0, 3);
}

/** Stops esbuild's background service (so it cannot disturb the init measurements). */
export function stopBundler(): void {
  stop();
}

/**
 * Bundles each entry (a group's generated entry, lib/group-entries.ts, or a worker's `functions/<name>/handler.ts`)
 * into `<outDir>/<name>/index.mjs`, with the X-Ray SDK unless `xraySdk` is false (lib/service-function.ts), and its
 * `lazyModules` (lib/bundling/lazy-modules.ts) into `<outDir>/<name>/lazy/` with the asset's package.json.
 */
export async function bundleGroups(
  root: string,
  entries: readonly { name: string; entry: string; xraySdk?: boolean; lazyModules?: readonly string[] }[],
  outDir: string,
): Promise<BundleInfo[]> {
  return Promise.all(
    entries.map(async ({ name: group, entry, xraySdk, lazyModules = [] }) => {
      const dir = path.join(outDir, group);
      const outfile = path.join(dir, 'index.mjs');
      mkdirSync(dir, { recursive: true });
      const lazy = lazyChunks(lazyModules);
      const result = await build({ ...common(outfile, xraySdk, lazy.map((c) => c.specifier)), absWorkingDir: root, entryPoints: [entry] });
      const meta = result.metafile!;
      const chunks = await Promise.all(
        lazy.map(async (chunk) => {
          const options = chunkBuildOptions(chunk, dir, { target: 'node22', banner: REQUIRE_BANNER, mainFields: ['module', 'main'], alias: bundlingAliases(xraySdk ?? true) });
          await build({ ...options, absWorkingDir: root, logLevel: 'silent' });
          return { specifier: chunk.specifier, file: options.outfile, bytes: statSync(options.outfile).size };
        }),
      );
      if (lazy.length) writeFileSync(path.join(dir, 'package.json'), JSON.stringify(assetPackageJson(lazy)));
      return { name: group, file: outfile, bytes: statSync(outfile).size, topPackages: topPackages(meta, outfile), chunks };
    }),
  );
}

/** Bundles the baseline: a module holding only `DynamoDBDocumentClient.from(new DynamoDBClient({}))`. */
export async function bundleBaseline(root: string, outDir: string): Promise<BundleInfo> {
  const outfile = path.join(outDir, 'baseline-dynamodb-client', 'index.mjs');
  mkdirSync(path.dirname(outfile), { recursive: true });
  const result = await build({ ...common(outfile), absWorkingDir: root, stdin: { contents: BASELINE_SOURCE, resolveDir: root, sourcefile: 'baseline-dynamodb-client.ts', loader: 'ts' } });
  return { name: 'baseline (DynamoDB client only)', file: outfile, bytes: statSync(outfile).size, topPackages: topPackages(result.metafile!, outfile), chunks: [] };
}

/**
 * One fresh `node` process importing `file`.
 * @returns the import's duration (`ms`, wall clock) and the CPU time the process spent in it (`cpuMs`, user + system:
 *   less sensitive than the wall clock to other work on a shared machine), both as the process measured them
 */
export async function measureInitOnce(file: string, env: NodeJS.ProcessEnv): Promise<{ ms: number; cpuMs: number }> {
  const script = `const c=process.cpuUsage(); const t=performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); const d=process.cpuUsage(c); console.log(performance.now()-t, (d.user+d.system)/1000)`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { env, timeout: 30_000 });
  const [ms, cpuMs] = (stdout.trim().split('\n').pop() ?? '').split(' ').map(Number);
  if (!Number.isFinite(ms) || !Number.isFinite(cpuMs)) throw new Error(`init of ${file}: unexpected output ${JSON.stringify(stdout)}`);
  return { ms, cpuMs };
}

/** A bundle's init measured in pairs with the baseline (`measureInitPaired`). */
export interface PairedInit {
  /** Median import time, ms (wall clock), and median CPU time (user + system), ms. */
  medianMs: number;
  medianCpuMs: number;
  /** Median over the pairs of this import's time over the baseline's import just before it (wall clock; CPU time). */
  medianRatio: number;
  medianCpuRatio: number;
}

/**
 * Init of each of `files` against `baseline`, in pairs: every round imports the baseline and then the file, each in
 * a fresh process, for every file, and a file's ratio is the median of its pairs' ratios. A pair is about 0.2 s
 * apart, so a drift of the machine's speed over a round (seconds: other processes, frequency changes) affects both
 * sides alike, where a ratio of medians taken over whole rounds moved by up to 0.1× between quiet runs. One untimed
 * import of each first (warm file cache).
 * @returns file → its `PairedInit`, and the baseline's median import time (ms, wall clock and CPU)
 */
export async function measureInitPaired(
  baseline: string,
  files: string[],
  runs: number,
  env: NodeJS.ProcessEnv | ((file: string) => NodeJS.ProcessEnv),
): Promise<{ byFile: Map<string, PairedInit>; baselineMs: number; baselineCpuMs: number }> {
  const envOf = typeof env === 'function' ? env : () => env;
  for (const f of [baseline, ...files]) await measureInitOnce(f, envOf(f));
  const base: { ms: number; cpuMs: number }[] = [];
  const pairs = new Map(files.map((f) => [f, [] as { ms: number; cpuMs: number; ratio: number; cpuRatio: number }[]]));
  for (let r = 0; r < runs; r++) {
    for (const f of files) {
      const b = await measureInitOnce(baseline, envOf(baseline));
      const x = await measureInitOnce(f, envOf(f));
      base.push(b);
      pairs.get(f)!.push({ ...x, ratio: x.ms / b.ms, cpuRatio: x.cpuMs / b.cpuMs });
    }
  }
  const byFile = new Map(
    [...pairs].map(([f, s]) => [
      f,
      { medianMs: median(s.map((p) => p.ms)), medianCpuMs: median(s.map((p) => p.cpuMs)), medianRatio: median(s.map((p) => p.ratio)), medianCpuRatio: median(s.map((p) => p.cpuRatio)) },
    ]),
  );
  return { byFile, baselineMs: median(base.map((b) => b.ms)), baselineCpuMs: median(base.map((b) => b.cpuMs)) };
}
