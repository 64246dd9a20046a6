/**
 * The messaging API group's asset as `cdk synth` stages it (lib/bundling/lazy-modules.ts): a stack with that one
 * function, defined as lib/stack.ts defines it, synthesized with bundling on (NodejsFunction's local esbuild and
 * its afterBundling hook). Its `index.mjs` holds neither html-to-text nor libphonenumber-js (told by the source map's
 * `sources`), imports them by specifier, and the chunks and package.json beside it let a bare `node` resolve and run
 * them, as Lambda's runtime does in /var/task.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, Stack } from 'aws-cdk-lib';
import { loadOperations } from '#lib/registry';
import { writeGroupEntries } from '#lib/group-entries';
import { bundlesXraySdk, ServiceFunction } from '#lib/service-function';
import { lazyChunks, lazyModulesOf } from '#lib/bundling/lazy-modules';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Packages (and the metadata set) that moved out of the group's bundle into its chunks. */
const LAZY_CODE = /node_modules\/(html-to-text|htmlparser2|entities|libphonenumber-js)\/|phone-metadata\/mobile\.json/;

let outdir: string;
let entriesDir: string;
let asset: string;
const sourcesOf = (mapFile: string): string[] => JSON.parse(readFileSync(path.join(asset, mapFile), 'utf8')).sources;

beforeAll(async () => {
  mkdirSync(path.join(ROOT, '.build'), { recursive: true });
  entriesDir = mkdtempSync(path.join(ROOT, '.build', 'lazy-entries-'));
  outdir = mkdtempSync(path.join(os.tmpdir(), 'tcs-lazy-'));
  const entry = writeGroupEntries(await loadOperations(), ['messaging'], entriesDir).get('messaging')!;
  const app = new App({ outdir });
  const stack = new Stack(app, 'LazyChunks');
  new ServiceFunction(stack, 'MessagingApi', { entry, serviceName: 'api-messaging', deployment: 'api', xraySdk: bundlesXraySdk(), lazyModules: lazyModulesOf('messaging') });
  app.synth();
  const staged = readdirSync(outdir).filter((d) => d.startsWith('asset.') && existsSync(path.join(outdir, d, 'index.mjs')));
  expect(staged).toHaveLength(1);
  asset = path.join(outdir, staged[0]);
}, 120_000);
afterAll(() => {
  rmSync(outdir, { recursive: true, force: true });
  rmSync(entriesDir, { recursive: true, force: true });
});

describe('the messaging group\'s staged asset', () => {
  it('declares its lazy modules: html-to-text and the textable-number parser', () => {
    expect(lazyModulesOf('messaging')).toEqual(['#domain/html-to-text', '#domain/textable-phone']);
    expect(lazyModulesOf('contacts')).toEqual([]);
  });

  it('index.mjs holds the messaging use cases but none of the lazy code, and imports each chunk by its specifier', () => {
    const sources = sourcesOf('index.mjs.map');
    expect(sources.some((s) => s.endsWith('shared/use-cases/messaging/send-email.ts'))).toBe(true);
    expect(sources.filter((s) => LAZY_CODE.test(s))).toEqual([]);
    const code = readFileSync(path.join(asset, 'index.mjs'), 'utf8');
    expect(code).toContain('import("#domain/html-to-text")');
    expect(code).toContain('import("#domain/textable-phone")');
  });

  it('ships each chunk with its own code, and a package.json mapping each specifier to it', () => {
    expect(JSON.parse(readFileSync(path.join(asset, 'package.json'), 'utf8'))).toEqual({
      type: 'module',
      imports: { '#domain/html-to-text': './lazy/html-to-text.mjs', '#domain/textable-phone': './lazy/textable-phone.mjs' },
    });
    expect(sourcesOf('lazy/html-to-text.mjs.map').some((s) => /node_modules\/html-to-text\//.test(s))).toBe(true);
    expect(sourcesOf('lazy/textable-phone.mjs.map').some((s) => /node_modules\/libphonenumber-js\//.test(s))).toBe(true);
    expect(sourcesOf('lazy/textable-phone.mjs.map').some((s) => s.endsWith('phone-metadata/mobile.json'))).toBe(true);
  });

  it('a bare node in the asset resolves both specifiers to the chunks and runs them', () => {
    writeFileSync(
      path.join(asset, 'probe.mjs'),
      "const { htmlToText } = await import('#domain/html-to-text'); const { toE164 } = await import('#domain/textable-phone');\n" +
        "console.log(JSON.stringify([htmlToText('<p>Appraisal <b>at value</b></p><ul><li>Loan approval</li></ul>'), toE164('(512) 555-0147'), toE164('+1 800 555 0199') ?? null]));\n",
    );
    const out = execFileSync(process.execPath, ['probe.mjs'], { cwd: asset, env: { PATH: process.env.PATH }, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual(['Appraisal at value\n\n * Loan approval', '+15125550147', null]);
  });
});

describe('lazyChunks', () => {
  it('names each chunk for its module and refuses what cannot be one', () => {
    expect(lazyChunks(['#domain/html-to-text']).map((c) => c.file)).toEqual(['lazy/html-to-text.mjs']);
    expect(() => lazyChunks(['html-to-text'])).toThrow(/only package.json "imports" specifiers/);
    expect(() => lazyChunks(['#domain/html-to-text', '#domain/html-to-text'])).toThrow(/two would be shipped as lazy\/html-to-text\.mjs/);
    expect(() => lazyChunks(['#domain/no-such-module'])).toThrow();
  });
});
