/**
 * What issue 24 took out of the API groups stays out: the S3 client (presigning and single-object requests go
 * through shared/ports/s3-object-requests.ts), libphonenumber-js's packaged metadata (the bundled sets lack formats,
 * lib/phone-metadata.ts) and a second copy of `entities` (one version for html-to-text's parser and serializer, the
 * `overrides` entry of package.json), luxon (times in zones come from `Intl`) and Handlebars' parser outside templates
 * (a saved template carries its outline, shared/domain/template-outline.ts). Each group's entry (lib/group-entries.ts) and the public-links function are
 * bundled by esbuild with the aliases functions ship with and the watched packages included (others are left
 * external, for speed), so the metafile lists the package files each bundle really holds: an unused import of a
 * package is dropped, as in the deployed bundle. A group's lazy modules (lib/bundling/lazy-modules.ts) are external
 * to its bundle, as shipped, and each chunk is bundled on its own as `<group>:<chunk file>`.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { LAMBDA_GROUPS } from '#api/types';
import { loadOperations } from '#lib/registry';
import { writeGroupEntries } from '#lib/group-entries';
import { bundlesXraySdk, bundlingAliases } from '#lib/service-function';
import { API_GROUP_LAZY_MODULES, lazyChunks } from '#lib/bundling/lazy-modules';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** API groups that may hold the S3 client: none (the communication-log ZIP is built by report-zip, lib/report-builder.ts). */
const S3_CLIENT_GROUPS: string[] = [];
/** What parses phone numbers: lazy chunks only (contacts normalizes them, messaging tells textable ones). */
const PHONE_CHUNKS = ['contacts:lazy/phone.mjs', 'messaging:lazy/textable-phone.mjs'];
const PUBLIC_LINKS = path.join(ROOT, 'functions/public-links/handler.ts');
/** A worker that keeps the S3 client (it streams objects and uploads multipart): the control that the check finds it. */
const EXPORT_WORKER = path.join(ROOT, 'functions/workspace-export/handler.ts');

let dir: string;
/** Bundle name → the files it holds (bytes in its output), relative to the repository root. */
const held = new Map<string, string[]>();
const holds = (name: string, pattern: RegExp) => (held.get(name) ?? []).filter((f) => pattern.test(f));
/** Bundle name → what its output imports at load (`import` statements: external packages and Node's modules). */
const staticImports = new Map<string, string[]>();
const S3_CLIENT = /^node_modules\/@aws-sdk\/client-s3\//;
/** The packages bundled (and so measured); every other package import is left external. */
const WATCHED = /^(@aws-sdk\/client-s3|libphonenumber-js|html-to-text|htmlparser2|dom-serializer|entities|luxon|handlebars)(\/|$)/;
/** What parses templates: the templates group's lazy chunk (it checks a template's text when it is created and renders previews). */
const TEMPLATE_PARSING_CHUNKS = ['templates:lazy/template-parser.mjs'];

beforeAll(async () => {
  const ops = await loadOperations();
  mkdirSync(path.join(ROOT, '.build'), { recursive: true });
  dir = mkdtempSync(path.join(ROOT, '.build', 'trim-entries-'));
  const entries = writeGroupEntries(ops, LAMBDA_GROUPS.filter((g) => ops.some((op) => op.group === g)), dir);
  const lazy = new Map(Object.entries(API_GROUP_LAZY_MODULES).map(([group, specifiers]) => [group, lazyChunks(specifiers ?? [])]));
  const named = [...[...entries].map(([group, entry]) => [path.resolve(entry), group] as const), [PUBLIC_LINKS, 'public-links'] as const, [EXPORT_WORKER, 'workspace-export'] as const];
  // One build of the bundles without lazy modules; one per group with them (its specifiers external) and per chunk.
  const builds: { names: Map<string, string>; external: string[] }[] = [
    { names: new Map(named.filter(([, name]) => !lazy.has(name))), external: [] },
    ...named.filter(([, name]) => lazy.has(name)).map(([entry, name]) => ({ names: new Map([[entry, name]]), external: lazy.get(name)!.map((c) => c.specifier) })),
    ...[...lazy].flatMap(([group, chunks]) => chunks.map((c) => ({ names: new Map([[path.resolve(c.entry), `${group}:${c.file}`]]), external: [] }))),
  ];
  await Promise.all(
    builds.map(async ({ names, external }, i) => {
      const out = await build({ entryPoints: [...names.keys()], bundle: true, platform: 'node', format: 'esm', mainFields: ['module', 'main'], plugins: [{ name: 'watched-packages-only', setup: (b) => void b.onResolve({ filter: /^[^./#]/ }, (args) => (WATCHED.test(args.path) ? undefined : { external: true })) }], alias: bundlingAliases(bundlesXraySdk()), external, outdir: path.join(dir, `out-${i}`), write: false, metafile: true, logLevel: 'silent', absWorkingDir: ROOT });
      for (const output of Object.values(out.metafile.outputs)) {
        if (!output.entryPoint) continue;
        const files = Object.entries(output.inputs).filter(([, input]) => input.bytesInOutput > 0).map(([f]) => path.relative(ROOT, path.resolve(ROOT, f)).split(path.sep).join('/'));
        const name = names.get(path.resolve(ROOT, output.entryPoint))!;
        held.set(name, files);
        staticImports.set(name, output.imports.filter((i) => i.kind === 'import-statement').map((i) => i.path));
      }
    }),
  );
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('API bundle trims (issue 24)', () => {
  it('finds the S3 client where it is (the check can fail): the export worker holds it (it streams and lists)', () => {
    expect(holds('workspace-export', S3_CLIENT).length).toBeGreaterThan(0);
  });

  it('no API group, nor the public-links function, bundles the S3 client', () => {
    expect(held.size).toBeGreaterThan(10);
    const offenders = [...held.keys()].filter((name) => name !== 'workspace-export' && !S3_CLIENT_GROUPS.includes(name) && holds(name, S3_CLIENT).length);
    expect(offenders).toEqual([]);
    for (const name of ['documents', 'extractions', 'public-links']) expect(holds(name, /^shared\/ports\/s3-object-requests\.ts$/), name).toHaveLength(1);
  });

  it('only contacts\' and messaging\'s lazy chunks parse phone numbers, each with one bundled set and none of the packaged ones', () => {
    const parsing = [...held.keys()].filter((name) => holds(name, /^node_modules\/libphonenumber-js\//).length).sort();
    expect(parsing).toEqual(PHONE_CHUNKS);
    expect(holds('contacts', /^shared\/domain\/contact-fields\.ts$/)).toHaveLength(1);
    expect(holds('contacts:lazy/phone.mjs', /^shared\//)).toEqual(['shared/domain/phone-metadata/min.json', 'shared/domain/phone.ts']);
    expect(holds('messaging:lazy/textable-phone.mjs', /phone-metadata\/|libphonenumber-js\/metadata/)).toEqual(['shared/domain/phone-metadata/mobile.json']);
  });

  it('messaging\'s bundle holds neither html-to-text nor libphonenumber-js: its chunks do, and nothing of the project\'s but their own module', () => {
    expect(holds('messaging', /^shared\/use-cases\/messaging\/send-email\.ts$/)).toHaveLength(1);
    expect(holds('messaging', /^node_modules\/(html-to-text|htmlparser2|entities|libphonenumber-js)\/|phone-metadata\/|^shared\/domain\/(html-to-text|textable-phone)\.ts$/)).toEqual([]);
    expect(holds('messaging:lazy/html-to-text.mjs', /^node_modules\/html-to-text\//).length).toBeGreaterThan(0);
    expect(holds('messaging:lazy/html-to-text.mjs', /^shared\//)).toEqual(['shared/domain/html-to-text.ts']);
    expect(holds('messaging:lazy/textable-phone.mjs', /^shared\//)).toEqual(['shared/domain/phone-metadata/mobile.json', 'shared/domain/textable-phone.ts']);
  });

  it('only templates\' lazy chunk holds Handlebars (transactions checks a reminder\'s template by its outline); no API group bundles luxon', () => {
    const parsing = [...held.keys()].filter((name) => holds(name, /^node_modules\/handlebars\//).length);
    expect(parsing).toEqual(TEMPLATE_PARSING_CHUNKS);
    expect(holds('templates', /^shared\/domain\/template-fields\.ts$/)).toHaveLength(1);
    expect(holds('templates:lazy/template-parser.mjs', /^shared\//)).toEqual(['shared/domain/template-parser.ts']);
    expect(holds('transactions', /^shared\/domain\/template-outline\.ts$/)).toHaveLength(1);
    expect([...held.keys()].filter((name) => holds(name, /^node_modules\/luxon\//).length)).toEqual([]);
  });

  it("the webhooks group loads node:net and node:dns only when it checks a subscription's URL (shared/events/url-safety.ts)", () => {
    expect(held.get('webhooks')).toContain('shared/events/url-safety.ts');
    expect(staticImports.get('webhooks')).toContain('node:crypto'); // the control: the check sees Node's modules
    expect(staticImports.get('webhooks')!.filter((i) => /^node:(net|dns)/.test(i))).toEqual([]);
  });

  it('documents and extractions start the extraction workflow without the Step Functions client (shared/ports/signed-request.ts)', () => {
    expect(staticImports.get('documents')).toContain('@aws-sdk/client-dynamodb'); // the control: the check sees the SDK clients a bundle imports
    for (const name of ['documents', 'extractions']) {
      expect(held.get(name), name).toContain('shared/ports/workflow.ts');
      expect(held.get(name), name).toContain('shared/ports/signed-request.ts');
    }
    const withSfnClient = [...staticImports].filter(([, imports]) => imports.some((i) => /^@aws-sdk\/client-sfn(\/|$)/.test(i))).map(([name]) => name);
    expect(withSfnClient).toEqual([]);
  });

  it('messaging\'s html-to-text chunk holds one copy of entities', () => {
    const chunk = 'messaging:lazy/html-to-text.mjs';
    const roots = new Set(holds(chunk, /(^|\/)node_modules\/entities\//).map((f) => f.slice(0, f.lastIndexOf('node_modules/entities/'))));
    expect([...roots]).toEqual(['']);
    expect(holds(chunk, /^node_modules\/entities\/lib\//)).toEqual([]);
  });
});
