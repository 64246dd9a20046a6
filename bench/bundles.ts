/**
 * Bundle size and module-init time of each Lambda group's and webhook worker's handler, beside a baseline bundle
 * that holds only a DynamoDB document client. Bundled with esbuild's JS API with the settings `lib/service-function.ts`
 * ships (ESM, node22, minified, source map without sources, `mainFields` module-first, the `require` shim
 * banner, AWS SDK bundled, the same aliases: X-Ray SDK left out where the function is built without it).
 */
import { bundlingAliases } from '../lib/service-function.ts';
import { execFile } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
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

/**
 * The SDK floor of the groups that also talk to S3 (documents, extractions): the baseline plus the S3 client
 * and presigner they cannot do without, so their own overhead can be told from the S3 SDK's.
 */
const S3_FLOOR_SOURCE = `${BASELINE_SOURCE}
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
export const s3 = new S3Client({});
export const s3Parts = [PutObjectCommand, getSignedUrl];
`;

export interface BundleInfo {
  name: string;
  file: string;
  bytes: number;
  /** The three largest npm packages in the bundle (bytes of output they contribute). */
  topPackages: { name: string; bytes: number }[];
  /** The bundle holds the S3 client (compare its init with the S3 floor too). */
  usesS3: boolean;
}

const common = (outfile: string, xraySdk = true): BuildOptions => ({
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
  outfile,
  metafile: true,
  logLevel: 'silent',
});

function outputOf(meta: Metafile, outfile: string) {
  return Object.entries(meta.outputs).find(([f]) => path.resolve(f) === path.resolve(outfile))?.[1];
}

const usesS3 = (meta: Metafile, outfile: string): boolean => Object.keys(outputOf(meta, outfile)?.inputs ?? {}).some((i) => i.includes('@aws-sdk/client-s3/'));

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
 * into `<outDir>/<name>/index.mjs`, with the X-Ray SDK unless `xraySdk` is false (lib/service-function.ts).
 */
export async function bundleGroups(root: string, entries: readonly { name: string; entry: string; xraySdk?: boolean }[], outDir: string): Promise<BundleInfo[]> {
  return Promise.all(
    entries.map(async ({ name: group, entry, xraySdk }) => {
      const outfile = path.join(outDir, group, 'index.mjs');
      mkdirSync(path.dirname(outfile), { recursive: true });
      const result = await build({ ...common(outfile, xraySdk), absWorkingDir: root, entryPoints: [entry] });
      const meta = result.metafile!;
      return { name: group, file: outfile, bytes: statSync(outfile).size, topPackages: topPackages(meta, outfile), usesS3: usesS3(meta, outfile) };
    }),
  );
}

const REFERENCES = {
  dynamodb: { dir: 'baseline-dynamodb-client', name: 'baseline (DynamoDB client only)', source: BASELINE_SOURCE },
  's3-floor': { dir: 'floor-dynamodb-s3-clients', name: 'S3 floor (DynamoDB + S3 clients)', source: S3_FLOOR_SOURCE },
} as const;

/**
 * Bundles a reference module: `dynamodb` (the baseline: only `DynamoDBDocumentClient.from(new DynamoDBClient({}))`)
 * or `s3-floor` (the baseline plus an S3 client and the presigner).
 */
export async function bundleBaseline(root: string, outDir: string, kind: keyof typeof REFERENCES = 'dynamodb'): Promise<BundleInfo> {
  const ref = REFERENCES[kind];
  const outfile = path.join(outDir, ref.dir, 'index.mjs');
  mkdirSync(path.dirname(outfile), { recursive: true });
  const result = await build({ ...common(outfile), absWorkingDir: root, stdin: { contents: ref.source, resolveDir: root, sourcefile: `${ref.dir}.ts`, loader: 'ts' } });
  return { name: ref.name, file: outfile, bytes: statSync(outfile).size, topPackages: topPackages(result.metafile!, outfile), usesS3: kind === 's3-floor' };
}

/** One fresh `node` process importing `file`; resolves with the import's duration (ms) as the module measured it. */
export async function measureInitOnce(file: string, env: NodeJS.ProcessEnv): Promise<number> {
  const script = `const t=performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); console.log(performance.now()-t)`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { env, timeout: 30_000 });
  const ms = Number(stdout.trim().split('\n').pop());
  if (!Number.isFinite(ms)) throw new Error(`init of ${file}: unexpected output ${JSON.stringify(stdout)}`);
  return ms;
}

/**
 * Median init time of each bundle over `runs` fresh processes, after one untimed import of each (warm file
 * cache). Rounds are interleaved (every bundle once per round, baseline included) so machine noise spreads
 * evenly over all of them.
 * @param env the environment of the processes, or of each bundle's processes
 * @returns bundle file → { medianMs, samplesMs }
 */
export async function measureInit(
  files: string[],
  runs: number,
  env: NodeJS.ProcessEnv | ((file: string) => NodeJS.ProcessEnv),
): Promise<Map<string, { medianMs: number; samplesMs: number[] }>> {
  const envOf = typeof env === 'function' ? env : () => env;
  const samples = new Map(files.map((f) => [f, [] as number[]]));
  for (const f of files) await measureInitOnce(f, envOf(f));
  for (let r = 0; r < runs; r++) for (const f of files) samples.get(f)!.push(await measureInitOnce(f, envOf(f)));
  return new Map([...samples].map(([f, s]) => [f, { medianMs: median(s), samplesMs: s }]));
}
