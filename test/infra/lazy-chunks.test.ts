/**
 * The assets of the API groups with lazy chunks (lib/bundling/lazy-modules.ts) as `cdk synth` stages them: a stack
 * with those functions, each defined as lib/stack.ts defines it, synthesized once with bundling on (NodejsFunction's
 * local esbuild and its afterBundling hook). Table-driven, one row per group: its `index.mjs` holds none of the moved
 * code (told by the source map's `sources`), imports each chunk by specifier, and the chunks and package.json beside
 * it let a bare `node` resolve and run them, as Lambda's runtime does in /var/task.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, Stack } from 'aws-cdk-lib';
import type { LambdaGroup } from '#api/types';
import { loadOperations } from '#lib/registry';
import { writeGroupEntries } from '#lib/group-entries';
import { bundlesXraySdk, ServiceFunction } from '#lib/service-function';
import { API_GROUP_LAZY_MODULES, EVERY_API_GROUP_LAZY_MODULES, lazyChunks, lazyModulesOf } from '#lib/bundling/lazy-modules';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** One group with lazy chunks, and what its staged asset must show. */
interface LazyGroupCase {
  group: LambdaGroup;
  /** A module of the group's own that stays in index.mjs (the control that the check reads the right map). */
  stays: string;
  /** Sources (packages, metadata, the lazy modules themselves) that moved out of index.mjs into the chunks. */
  moved: RegExp;
  /** Chunk file → sources it must hold. */
  chunkHolds: Record<string, RegExp[]>;
  /** A script run by a bare `node` in the asset: loads every specifier and prints one JSON value. */
  probe: string;
  expected: unknown;
}

/** The chunk every API group ships: the access-token check with aws-jwt-verify. */
const TOKEN_CHUNK = { 'lazy/access-token-signature.mjs': [/node_modules\/aws-jwt-verify\//, /shared\/use-cases\/access-token-signature\.ts$/] };
const TOKEN_MOVED = 'node_modules\\/aws-jwt-verify\\/|shared\\/use-cases\\/access-token-signature\\.ts$';

const CASES: LazyGroupCase[] = [
  {
    group: 'messaging',
    stays: 'shared/use-cases/messaging/send-email.ts',
    moved: new RegExp(`node_modules\\/(html-to-text|htmlparser2|entities|libphonenumber-js)\\/|phone-metadata\\/mobile\\.json|shared\\/domain\\/(html-to-text|textable-phone)\\.ts$|${TOKEN_MOVED}`),
    chunkHolds: {
      ...TOKEN_CHUNK,
      'lazy/html-to-text.mjs': [/node_modules\/html-to-text\//],
      'lazy/textable-phone.mjs': [/node_modules\/libphonenumber-js\//, /phone-metadata\/mobile\.json$/],
    },
    probe:
      "const { htmlToText } = await import('#domain/html-to-text'); const { toE164 } = await import('#domain/textable-phone');\n" +
      "console.log(JSON.stringify([htmlToText('<p>Appraisal <b>at value</b></p><ul><li>Loan approval</li></ul>'), toE164('(512) 555-0147'), toE164('+1 800 555 0199') ?? null]));\n",
    expected: ['Appraisal at value\n\n * Loan approval', '+15125550147', null],
  },
  {
    group: 'contacts',
    stays: 'shared/domain/contact-fields.ts',
    moved: new RegExp(`node_modules\\/libphonenumber-js\\/|phone-metadata\\/|shared\\/domain\\/phone\\.ts$|${TOKEN_MOVED}`),
    chunkHolds: { ...TOKEN_CHUNK, 'lazy/phone.mjs': [/node_modules\/libphonenumber-js\//, /phone-metadata\/min\.json$/, /shared\/domain\/phone\.ts$/] },
    probe:
      "const { normalizePhone } = await import('#domain/phone');\n" +
      "console.log(JSON.stringify([normalizePhone('(512) 555-0147'), normalizePhone('+44 20 7946 0958'), normalizePhone('555-0147') ?? null]));\n",
    expected: ['+15125550147', '+442079460958', null],
  },
  {
    group: 'templates',
    stays: 'shared/domain/template-fields.ts',
    moved: new RegExp(`node_modules\\/handlebars\\/|shared\\/domain\\/template-parser\\.ts$|${TOKEN_MOVED}`),
    chunkHolds: { ...TOKEN_CHUNK, 'lazy/template-parser.mjs': [/node_modules\/handlebars\//, /shared\/domain\/template-parser\.ts$/] },
    probe:
      "const { parse } = await import('#domain/template-parser'); let error = null;\n" +
      "try { parse('{{#if a}}x'); } catch (err) { error = err.message.split('\\n')[0]; }\n" +
      "console.log(JSON.stringify([parse('Hi {{client.firstName}}{{#if reminder.note}} {{reminder.note}}{{/if}}').body.map((n) => n.type), error]));\n",
    expected: [['ContentStatement', 'MustacheStatement', 'BlockStatement'], 'Parse error on line 1:'],
  },
  {
    // A group with only the chunk every group has: its signing-key cache stays (it lives as long as the container).
    group: 'transactions',
    stays: 'shared/use-cases/signing-key-cache.ts',
    moved: new RegExp(TOKEN_MOVED),
    chunkHolds: TOKEN_CHUNK,
    probe:
      "const { checkAccessToken } = await import('#use-cases/access-token-signature'); const iss = 'https://tc.example';\n" +
      "const header = Buffer.from(JSON.stringify({ alg: 'ES256', typ: 'at+jwt', kid: 'k'.repeat(43) })).toString('base64url');\n" +
      "const payload = Buffer.from(JSON.stringify({ iss, aud: iss, exp: 4102444800, sub: 'u', org_id: 'o', client_id: 'c', scope: 'read', gid: 'g' })).toString('base64url');\n" +
      "const asked = []; const lookUp = async (kid) => { asked.push(kid); return undefined; };\n" +
      "const results = [await checkAccessToken('not-a-jwt', iss, [iss], lookUp, () => undefined), await checkAccessToken(`${header}.${payload}.${'A'.repeat(86)}`, iss, [iss], lookUp, () => undefined)];\n" +
      "console.log(JSON.stringify([results.map((r) => Object.keys(r)), asked]));\n",
    expected: [[['refused'], ['refused']], ['k'.repeat(43)]],
  },
];

let outdir: string;
let entriesDir: string;
/** Group → its staged asset directory. */
const assets = new Map<string, string>();
const sourcesOf = (asset: string, mapFile: string): string[] => JSON.parse(readFileSync(path.join(asset, mapFile), 'utf8')).sources;

beforeAll(async () => {
  mkdirSync(path.join(ROOT, '.build'), { recursive: true });
  entriesDir = mkdtempSync(path.join(ROOT, '.build', 'lazy-entries-'));
  outdir = mkdtempSync(path.join(os.tmpdir(), 'tcs-lazy-'));
  const groups = CASES.map((c) => c.group);
  const entries = writeGroupEntries(await loadOperations(), groups, entriesDir);
  const app = new App({ outdir });
  const stack = new Stack(app, 'LazyChunks');
  for (const group of groups) {
    new ServiceFunction(stack, `Api-${group}`, { entry: entries.get(group)!, serviceName: `api-${group}`, deployment: 'api', xraySdk: bundlesXraySdk(), lazyModules: lazyModulesOf(group) });
  }
  app.synth();
  // Each asset is told by its entry among its source map's sources (.build/lazy-entries-*/<group>.ts).
  const staged = readdirSync(outdir).filter((d) => d.startsWith('asset.') && existsSync(path.join(outdir, d, 'index.mjs'))).map((d) => path.join(outdir, d));
  expect(staged).toHaveLength(groups.length);
  for (const asset of staged) {
    const group = groups.find((g) => sourcesOf(asset, 'index.mjs.map').some((s) => s.endsWith(`${path.basename(entriesDir)}/${g}.ts`)));
    expect(group, asset).toBeDefined();
    assets.set(group!, asset);
  }
}, 240_000);
afterAll(() => {
  rmSync(outdir, { recursive: true, force: true });
  rmSync(entriesDir, { recursive: true, force: true });
});

describe('the groups that declare lazy modules', () => {
  it('are messaging (html-to-text, textable numbers), contacts (phone numbers) and templates (Handlebars\' parser); every group has the access-token check', () => {
    expect(API_GROUP_LAZY_MODULES).toEqual({
      messaging: ['#domain/html-to-text', '#domain/textable-phone'],
      contacts: ['#domain/phone'],
      templates: ['#domain/template-parser'],
    });
    expect(EVERY_API_GROUP_LAZY_MODULES).toEqual(['#use-cases/access-token-signature']);
    expect(lazyModulesOf('transactions')).toEqual(['#use-cases/access-token-signature']);
    expect(lazyModulesOf('contacts')).toEqual(['#domain/phone', '#use-cases/access-token-signature']);
    expect(CASES.map((c) => c.group).sort()).toEqual([...Object.keys(API_GROUP_LAZY_MODULES), 'transactions'].sort());
  });
});

describe.each(CASES)('the $group group\'s staged asset', ({ group, stays, moved, chunkHolds, probe, expected }) => {
  const asset = () => assets.get(group)!;

  it('index.mjs holds the group\'s own code but none of the moved code, and imports each chunk by its specifier', () => {
    const sources = sourcesOf(asset(), 'index.mjs.map');
    expect(sources.some((s) => s.endsWith(stays))).toBe(true);
    expect(sources.filter((s) => moved.test(s))).toEqual([]);
    const code = readFileSync(path.join(asset(), 'index.mjs'), 'utf8');
    for (const specifier of lazyModulesOf(group)) expect(code).toContain(`import("${specifier}")`);
  });

  it('ships each chunk with its own code, and a package.json mapping each specifier to it', () => {
    const chunks = lazyChunks(lazyModulesOf(group));
    expect(chunks.map((c) => c.file).sort()).toEqual(Object.keys(chunkHolds).sort());
    expect(JSON.parse(readFileSync(path.join(asset(), 'package.json'), 'utf8'))).toEqual({
      type: 'module',
      imports: Object.fromEntries(chunks.map((c) => [c.specifier, `./${c.file}`])),
    });
    for (const [file, patterns] of Object.entries(chunkHolds)) {
      const sources = sourcesOf(asset(), `${file}.map`);
      for (const p of patterns) expect(sources.some((s) => p.test(s)), `${file} holds ${p}`).toBe(true);
    }
  });

  it('a bare node in the asset resolves each specifier to its chunk and runs it', () => {
    writeFileSync(path.join(asset(), 'probe.mjs'), probe);
    const out = execFileSync(process.execPath, ['probe.mjs'], { cwd: asset(), env: { PATH: process.env.PATH }, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual(expected);
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
