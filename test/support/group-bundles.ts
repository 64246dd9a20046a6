/**
 * What a deployed function's bundle holds, without writing it: esbuild bundles the entry with the aliases functions
 * ship with (lib/service-function.ts `bundlingAliases`) and npm packages left external, which walks exactly the
 * modules the function would carry (a dynamic `import()` of a literal is followed too). The metafile gives the
 * project files among its inputs and the npm packages among its imports. The API groups' graphs are built once per
 * worker (the unit project shares one module graph), from the entries lib/group-entries.ts generates.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { LAMBDA_GROUPS, type LambdaGroup } from '#api/types';
import { loadOperations } from '#lib/registry';
import { writeGroupEntries } from '#lib/group-entries';
import { bundlesXraySdk, bundlingAliases } from '#lib/service-function';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** One bundle's module graph. */
export interface BundleGraph {
  /** Project files it holds, relative to the repository root with `/` (e.g. `shared/ports/token-signer.ts`). */
  files: string[];
  /** npm import paths it keeps external (e.g. `@aws-sdk/client-kms`, `nodemailer/lib/x`). */
  packages: string[];
}

/** True when `graph` imports npm package `name` or one of its subpaths. */
export const importsPackage = (graph: BundleGraph, name: string): boolean => graph.packages.some((p) => p === name || p.startsWith(`${name}/`));

/**
 * Bundles `entries` (absolute paths) in one esbuild run.
 * @param xraySdk as the functions are deployed (API groups: false, lib/service-function.ts `bundlesXraySdk`)
 * @returns absolute entry path → its graph
 */
export async function bundleGraphs(entries: string[], xraySdk: boolean): Promise<Map<string, BundleGraph>> {
  const out = await build({ entryPoints: entries, bundle: true, platform: 'node', format: 'esm', packages: 'external', alias: bundlingAliases(xraySdk), outdir: path.join(ROOT, '.build', 'graph-out'), write: false, metafile: true, logLevel: 'silent', absWorkingDir: ROOT });
  const graphs = new Map<string, BundleGraph>();
  for (const output of Object.values(out.metafile.outputs)) {
    if (!output.entryPoint) continue;
    const files = Object.keys(output.inputs).map((f) => path.relative(ROOT, path.resolve(ROOT, f)).split(path.sep).join('/'));
    const packages = [...new Set(output.imports.filter((i) => i.external).map((i) => i.path))];
    graphs.set(path.resolve(ROOT, output.entryPoint), { files: files.sort(), packages: packages.sort() });
  }
  return graphs;
}

let apiGroups: Promise<Map<LambdaGroup, BundleGraph>> | undefined;

/** Every API group that has operations → its bundle's graph (built once per worker). */
export function apiGroupGraphs(): Promise<Map<LambdaGroup, BundleGraph>> {
  apiGroups ??= (async () => {
    const ops = await loadOperations();
    mkdirSync(path.join(ROOT, '.build'), { recursive: true });
    const dir = mkdtempSync(path.join(ROOT, '.build', 'group-graph-entries-'));
    try {
      const entries = writeGroupEntries(ops, LAMBDA_GROUPS.filter((g) => ops.some((op) => op.group === g)), dir);
      const graphs = await bundleGraphs([...entries.values()].map((e) => path.resolve(e)), bundlesXraySdk());
      return new Map([...entries].map(([group, entry]) => [group, graphs.get(path.resolve(entry))!]));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  })();
  return apiGroups;
}
