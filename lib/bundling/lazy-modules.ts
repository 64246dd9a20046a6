/**
 * Lazily loaded chunks: modules a function reaches only through `await import('#domain/…')`, shipped as their own
 * files beside its bundle instead of inside it, so module init does not pay for them and the bundle stays within
 * its budget (issue 24). esbuild builds a function into one file (`--outfile`, no code splitting) and inlines any
 * `import()` it can resolve, so for a function that declares lazy modules (`ServiceFunction` `lazyModules`):
 * - each specifier is external to the main bundle (`--external:`), which keeps `import('#domain/html-to-text')`;
 * - after bundling, each is built with the same esbuild options into `lazy/<name>.mjs` of the asset;
 * - the asset's `package.json` maps each specifier to its chunk (`imports`, Node's subpath imports:
 *   https://nodejs.org/api/packages.html#subpath-imports), so `/var/task/index.mjs` resolves the specifier as the
 *   project's own package.json resolves it to the TypeScript source under tsx.
 * A function that does not declare them bundles the same modules statically. A lazy module must import nothing whose
 * identity matters (error classes, module state): its chunk holds its own copy of everything it imports.
 * The hooks run in local bundling only (`forceDockerBundling: false`; the aliases are paths on this machine).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import type { LambdaGroup } from '#api/types';

/** Lazy modules of particular API groups, by group; every other group (and every worker) bundles them statically. */
export const API_GROUP_LAZY_MODULES: Partial<Record<LambdaGroup, readonly string[]>> = {
  // html-to-text with its parser (~114 KB) for HTML-only sends, libphonenumber-js with the mobile set (~84 KB) for
  // texts and recipients' SMS availability: without them the group is within 400 KB (README, "Benchmark").
  messaging: ['#domain/html-to-text', '#domain/textable-phone'],
  // libphonenumber-js with the min set (~60 KB), for a contact write that brings a new phone.
  contacts: ['#domain/phone'],
  // Handlebars' parser (~36 KB), for creating and rendering a template; listing and reading use the stored outline.
  templates: ['#domain/template-parser'],
};

/**
 * Lazy modules of every API group: the OAuth access-token check with aws-jwt-verify (~14 KB), needed only by a request
 * that carries an access token, not by one with an organization API key.
 */
export const EVERY_API_GROUP_LAZY_MODULES: readonly string[] = ['#use-cases/access-token-signature'];

/** The lazy modules of API group `group`: its own (`API_GROUP_LAZY_MODULES`), then every group's. */
export const lazyModulesOf = (group: LambdaGroup): readonly string[] => [...(API_GROUP_LAZY_MODULES[group] ?? []), ...EVERY_API_GROUP_LAZY_MODULES];

/** One lazy module as shipped. */
export interface LazyChunk {
  /** The specifier the code imports, e.g. `#domain/html-to-text`. */
  specifier: string;
  /** Absolute path of its source (the project's package.json `imports` target). */
  entry: string;
  /** Its file in the asset, relative to the asset root, e.g. `lazy/html-to-text.mjs`. */
  file: string;
}

const resolveInProject = createRequire(import.meta.url).resolve;

/**
 * The chunks of `specifiers`, each resolved through the project's package.json `imports` and named for its file.
 * @throws Error for a specifier that is not a `#` subpath import, does not resolve, or names the same chunk as another
 */
export function lazyChunks(specifiers: readonly string[]): LazyChunk[] {
  const chunks = specifiers.map((specifier) => {
    if (!specifier.startsWith('#')) throw new Error(`lazy module ${specifier}: only package.json "imports" specifiers (#…) can be lazy`);
    const entry = resolveInProject(specifier);
    return { specifier, entry, file: `lazy/${path.basename(entry).replace(/\.[cm]?[jt]s$/, '')}.mjs` };
  });
  const files = chunks.map((c) => c.file);
  const clash = files.find((f, i) => files.indexOf(f) !== i);
  if (clash) throw new Error(`lazy modules ${specifiers.join(', ')}: two would be shipped as ${clash}`);
  return chunks;
}

/** The asset's package.json: ESM, and each lazy specifier mapped to its chunk. */
export function assetPackageJson(chunks: readonly LazyChunk[]): { type: 'module'; imports: Record<string, string> } {
  return { type: 'module', imports: Object.fromEntries(chunks.map((c) => [c.specifier, `./${c.file}`])) };
}

/** The main bundle's esbuild settings a chunk is built with too (lib/service-function.ts passes its own). */
export interface ChunkBuildSettings {
  /** e.g. `node22` */
  target: string;
  /** JavaScript placed first in the output (the `require` shim of an ESM bundle). */
  banner: string;
  mainFields: readonly string[];
  /** esbuild aliases: specifier → absolute path. */
  alias: Readonly<Record<string, string>>;
}

/**
 * esbuild's JS API options that build `chunk` into `<outDir>/<chunk.file>`: as the main bundle (ESM, minified,
 * linked source map without sources, the banner, the aliases, every package bundled).
 */
export function chunkBuildOptions(chunk: LazyChunk, outDir: string, settings: ChunkBuildSettings) {
  return {
    entryPoints: [chunk.entry],
    outfile: path.join(outDir, chunk.file),
    bundle: true,
    platform: 'node' as const,
    format: 'esm' as const,
    target: settings.target,
    minify: true,
    sourcemap: true,
    sourcesContent: false,
    mainFields: [...settings.mainFields],
    banner: { js: settings.banner },
    alias: { ...settings.alias },
    logLevel: 'warning' as const,
  };
}

/** Single-quotes `s` for bash. */
const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Builds each chunk with esbuild's JS API, then writes the asset's package.json; run by `node` in the project root
 * (where `esbuild` resolves), with the chunks' options and the package.json as its one argument (JSON).
 */
const BUILD_SCRIPT =
  "import { build } from 'esbuild'; import { mkdirSync, writeFileSync } from 'node:fs'; import path from 'node:path';" +
  ' const { builds, packageJson, outDir } = JSON.parse(process.argv[1]);' +
  ' for (const options of builds) { mkdirSync(path.dirname(options.outfile), { recursive: true }); await build(options); }' +
  " writeFileSync(path.join(outDir, 'package.json'), JSON.stringify(packageJson));";

/**
 * NodejsFunction command hooks that, after the main bundle, build `chunks` into the asset directory and write its
 * package.json (`assetPackageJson`). The asset hash covers them (NodejsFunction hashes the output).
 */
export function lazyChunkHooks(chunks: readonly LazyChunk[], settings: ChunkBuildSettings): nodejs.ICommandHooks {
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (_inputDir: string, outputDir: string) => {
      const arg = { builds: chunks.map((c) => chunkBuildOptions(c, outputDir, settings)), packageJson: assetPackageJson(chunks), outDir: outputDir };
      return [`${shellQuote(process.execPath)} --input-type=module -e ${shellQuote(BUILD_SCRIPT)} ${shellQuote(JSON.stringify(arg))}`];
    },
  };
}
