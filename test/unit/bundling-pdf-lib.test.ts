/**
 * pdf-lib's bundling aliases (lib/service-function.ts `PDF_LIB_SHIMS`) against the packages they stand for:
 * - lib/bundling/pako-node-zlib.ts: what it deflates pako inflates, and the reverse (both the zlib format);
 * - lib/bundling/standard-fonts-helvetica.ts: Helvetica and Helvetica-Bold load with the package's exact metrics
 *   (widths, kerning, bounding box), the names and encodings are the package's, and another font is refused;
 * - the communication-log PDF renderer bundled with the aliases (as report-pdf ships it) renders the same pages as
 *   the renderer run unbundled.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { Encodings as packageEncodings, Font as PackageFont, FontNames as PackageFontNames } from '@pdf-lib/standard-fonts';
import { PDFDocument } from 'pdf-lib';
import * as zlibShim from '../../lib/bundling/pako-node-zlib.ts';
import { Encodings, Font, FontNames } from '../../lib/bundling/standard-fonts-helvetica.ts';
import { bundlingAliases, PDF_LIB_SHIMS } from '#lib/service-function';
import type { Communication } from '#db/communications';
import { renderCommunicationLogPdf } from '#use-cases/messaging/communication-log-pdf';
import type { CommunicationLog } from '#use-cases/messaging/communication-log';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The real pako (pdf-lib's dependency; it ships no types). */
const pako = createRequire(import.meta.url)('pako') as { deflate(data: Uint8Array): Uint8Array; inflate(data: Uint8Array): Uint8Array };
let dir: string | undefined;
afterAll(() => dir && rmSync(dir, { recursive: true, force: true }));

describe('pako → node:zlib', () => {
  const text = new TextEncoder().encode('BT /F1 9.5 Tf 54 720 Td (Option period ends Friday) Tj ET\n'.repeat(200));

  it('deflates what pako inflates, and inflates what pako deflates', () => {
    const ours = zlibShim.deflate(text);
    expect(ours.length).toBeLessThan(text.length / 10);
    expect(pako.inflate(ours)).toEqual(text);
    expect(zlibShim.inflate(pako.deflate(text))).toEqual(text);
    expect(zlibShim.default.inflate(zlibShim.default.deflate(text))).toEqual(text);
  });

  it('refuses data that is not zlib-format', () => {
    expect(() => zlibShim.inflate(text)).toThrow();
  });
});

describe('standard fonts: Helvetica and Helvetica-Bold only', () => {
  it.each(['Helvetica', 'Helvetica-Bold'] as const)('%s loads with the package\'s metrics', (name) => {
    const ours = Font.load(name);
    const theirs = PackageFont.load(name);
    const theirFields = theirs as unknown as Record<string, unknown>;
    expect(ours.FontName).toBe(name);
    expect(ours.CharWidths).toEqual(theirFields.CharWidths);
    expect(ours.KernPairXAmounts).toEqual(theirFields.KernPairXAmounts);
    for (const field of ['FontBBox', 'Ascender', 'Descender', 'CapHeight', 'XHeight', 'ItalicAngle', 'FamilyName', 'Weight']) expect(ours[field], field).toEqual(theirFields[field]);
    for (const glyph of ['A', 'W', 'space', 'question', 'eacute']) expect(ours.getWidthOfGlyph(glyph)).toBe(theirs.getWidthOfGlyph(glyph));
    for (const [l, r] of [['A', 'V'], ['T', 'o'], ['A', 'B']]) expect(ours.getXAxisKerningForPair(l, r)).toBe(theirs.getXAxisKerningForPair(l, r));
    expect(Font.load(name)).toBe(ours); // cached
  });

  it('keeps the package\'s names and encodings, and refuses the fonts it leaves out', () => {
    expect({ ...FontNames }).toEqual({ ...PackageFontNames });
    expect(Object.keys(Encodings).sort()).toEqual(Object.keys(packageEncodings).sort());
    expect(Encodings.WinAnsi.supportedCodePoints).toEqual(packageEncodings.WinAnsi.supportedCodePoints);
    expect(() => Font.load('Times-Roman')).toThrow(/Times-Roman is not bundled/);
    expect(() => Font.load(FontNames.Courier)).toThrow(/not bundled/);
  });
});

describe('the communication-log renderer bundled with the aliases', () => {
  const message = (i: number): Communication =>
    ({
      id: `m-${i}`, channel: i % 2 ? 'sms' : 'email', direction: 'outbound', status: 'sent', statusDetail: null, createdAt: `2026-11-2${i}T17:01:12.309Z`,
      from: { address: 'dana@hillcountry.example', name: 'Dana Agent' }, to: [{ address: 'buyer@example.net', name: null }], cc: [], bcc: [],
      subject: `Update ${i} – survey`, documents: [], bodyText: 'The survey is attached. No encroachments. '.repeat(40),
    }) as unknown as Communication;
  const log: CommunicationLog = { transaction: { id: 't-1', address: '88 Mockingbird Ct, Austin, TX 78704', status: 'active' }, from: null, to: null, generatedAt: '2026-11-27T08:00:00.000Z', messages: [1, 2, 3, 4, 5].map(message) };

  it('renders the same pages, title and page sizes as the renderer run unbundled', async () => {
    mkdirSync(path.join(ROOT, '.build'), { recursive: true });
    dir = mkdtempSync(path.join(ROOT, '.build', 'pdf-lib-shims-'));
    const out = await build({
      entryPoints: [path.join(ROOT, 'shared/use-cases/messaging/communication-log-pdf.ts')], bundle: true, platform: 'node', format: 'esm', target: 'node22',
      mainFields: ['module', 'main'], alias: bundlingAliases(false), outfile: path.join(dir, 'pdf.mjs'), metafile: true, logLevel: 'silent', absWorkingDir: ROOT,
      banner: { js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);" },
    });
    const inputs = Object.keys(out.metafile.outputs[path.relative(ROOT, path.join(dir, 'pdf.mjs'))].inputs);
    for (const shim of Object.values(PDF_LIB_SHIMS)) expect(inputs, shim).toContain(path.relative(ROOT, shim));
    const bundled = (await import(pathToFileURL(path.join(dir, 'pdf.mjs')).href)) as { renderCommunicationLogPdf: typeof renderCommunicationLogPdf };
    const [a, b] = await Promise.all([PDFDocument.load(await bundled.renderCommunicationLogPdf(log)), PDFDocument.load(await renderCommunicationLogPdf(log))]);
    expect(a.getPageCount()).toBeGreaterThan(1);
    expect(a.getPageCount()).toBe(b.getPageCount());
    expect(a.getTitle()).toBe(b.getTitle());
    expect(a.getPages().map((p) => p.getSize())).toEqual(b.getPages().map((p) => p.getSize()));
  }, 60_000);
});
