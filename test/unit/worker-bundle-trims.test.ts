/**
 * Worker bundles keep their trims (issue 24, workers ≤ 600 KB): each worker below is bundled whole by esbuild, as
 * lib/service-function.ts ships it (its aliases, npm packages inlined, `module` before `main`), and the metafile's
 * inputs must include none of the packages or modules that were taken out of it. A worker that regains one by a
 * new import, direct or transitive, fails here with the file that brought it.
 * - inbound-email parses with postal-mime (shared/ports/inbound-mail-parser.ts), not mailparser with iconv-lite's
 *   charset tables, libmime, encoding-japanese, he, and html-to-text with htmlparser2 and entities.
 * - message-send sends text already derived when the message was queued: no html-to-text; its transports are imported
 *   statically (shared/ports/mail/transport.ts, sms/transport.ts, plain-mailer.ts: behind an `import()` esbuild kept
 *   the aggregated `SESv2`, `SecretsManager` and `PinpointSMSVoiceV2` classes with every command), and the SMTP
 *   transport is built from nodemailer's `Mailer` and `SMTPTransport` (no pool, sendmail, SES, stream or JSON transport).
 * - step-startOcr counts pages with pdf-lib's parser (shared/ports/pdf-pages.ts), not its `PDFDocument` API with
 *   the PNG decoder and the drawing code.
 * - inbound-email and step-startOcr read objects with a presigned GET (`getObjectBytes`,
 *   shared/ports/s3-object-requests.ts): no S3 client (about 150 KB with its XML protocol and checksums).
 * - The communication-log report's PDF is built by report-pdf and its ZIP by report-zip (lib/report-builder.ts), not
 *   by the reports API group: report-pdf holds pdf-lib with Helvetica's metrics only, Node's zlib for pako and no PNG
 *   decoder (lib/bundling/, the `PDF_LIB_SHIMS` aliases), and no S3 client; report-zip holds the S3 client, the
 *   multipart upload and yazl, and no pdf-lib. The reports API group holds none of them, nor the Lambda client (it
 *   signs its invocations: shared/ports/report-builder.ts).
 * Only inputs that contribute bytes count (esbuild lists tree-shaken files with 0 bytes).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, type Metafile } from 'esbuild';
import { bundlingAliases, bundlesXraySdk } from '#lib/service-function';
import { STEP_HANDLER_FILES } from '#lib/extraction-pipeline';
import { loadOperations } from '#lib/registry';
import { writeGroupEntries } from '#lib/group-entries';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Per worker entry: path fragments its bundle's inputs must not contain, and one it must (so the check can fail). */
const TRIMS: Record<string, { held: string; removed: string[] }> = {
  'functions/inbound-email/handler.ts': {
    held: 'node_modules/postal-mime/',
    removed: ['node_modules/@aws-sdk/client-s3/', 'node_modules/mailparser/', 'node_modules/iconv-lite/', 'node_modules/libmime/', 'node_modules/encoding-japanese/', 'node_modules/he/', 'node_modules/html-to-text/', 'node_modules/htmlparser2/', 'node_modules/entities/'],
  },
  'functions/message-send/handler.ts': {
    held: 'node_modules/nodemailer/',
    removed: [
      'node_modules/html-to-text/', 'node_modules/htmlparser2/', 'shared/domain/html-to-text.ts',
      'node_modules/@aws-sdk/client-sesv2/dist-es/SESv2.js', 'node_modules/@aws-sdk/client-secrets-manager/dist-es/SecretsManager.js',
      'node_modules/@aws-sdk/client-pinpoint-sms-voice-v2/dist-es/PinpointSMSVoiceV2.js',
      'node_modules/nodemailer/dist/esm/nodemailer.js', 'node_modules/nodemailer/dist/esm/smtp-pool/', 'node_modules/nodemailer/dist/esm/sendmail-transport/',
    ],
  },
  'functions/report-pdf/handler.ts': {
    held: 'node_modules/pdf-lib/es/api/PDFDocument.js',
    removed: [
      'node_modules/@aws-sdk/client-s3/', 'node_modules/yazl/', 'node_modules/pako/', 'node_modules/@pdf-lib/upng/',
      'node_modules/@pdf-lib/standard-fonts/es/Times-Roman.compressed.json', 'node_modules/@pdf-lib/standard-fonts/es/Courier.compressed.json',
    ],
  },
  'functions/report-zip/handler.ts': {
    held: 'node_modules/yazl/',
    removed: ['node_modules/pdf-lib/', 'node_modules/@pdf-lib/'],
  },
  [STEP_HANDLER_FILES.startOcr]: {
    held: 'node_modules/pdf-lib/es/core/parser/PDFParser.js',
    removed: ['node_modules/@aws-sdk/client-s3/', 'node_modules/pdf-lib/es/api/', 'node_modules/@pdf-lib/upng/'],
  },
};
/** The reports API group (its generated entry, lib/group-entries.ts): it holds the report port, and none of what the workers do. */
const REPORTS_TRIM = {
  held: 'shared/ports/report-builder.ts',
  removed: ['node_modules/pdf-lib/', 'node_modules/@pdf-lib/', 'node_modules/yazl/', 'node_modules/@aws-sdk/client-s3/', 'node_modules/@aws-sdk/lib-storage/', 'node_modules/@aws-sdk/client-lambda/', 'node_modules/@aws-sdk/client-dynamodb/dist-es/DynamoDB.js'],
};

let dir: string;
let inputs: Map<string, string[]>;
let reportsInputs: string[];

/** Bundles `entries` whole; @returns entry (relative to the root) → the inputs that contribute bytes to its bundle */
async function bundledInputs(entries: string[], xraySdk: boolean): Promise<Map<string, string[]>> {
  const out = await build({
    entryPoints: entries,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    mainFields: ['module', 'main'],
    alias: bundlingAliases(xraySdk),
    outdir: path.join(dir, 'out'),
    write: false,
    metafile: true,
    logLevel: 'silent',
    absWorkingDir: ROOT,
  });
  return new Map(
    Object.values(out.metafile.outputs as Metafile['outputs'])
      .filter((o) => o.entryPoint)
      .map((o) => [path.relative(ROOT, path.resolve(ROOT, o.entryPoint!)).split(path.sep).join('/'), Object.entries(o.inputs).filter(([, i]) => i.bytesInOutput > 0).map(([f]) => f)]),
  );
}

beforeAll(async () => {
  mkdirSync(path.join(ROOT, '.build'), { recursive: true });
  dir = mkdtempSync(path.join(ROOT, '.build', 'worker-trims-'));
  inputs = await bundledInputs(Object.keys(TRIMS).map((f) => path.join(ROOT, f)), false);
  const ops = await loadOperations();
  const entry = writeGroupEntries(ops, ['reports'], dir).get('reports')!;
  reportsInputs = [...(await bundledInputs([entry], bundlesXraySdk())).values()][0];
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('worker bundles keep their trims', () => {
  it.each(Object.entries(TRIMS))('%s', (entry, { held, removed }) => {
    const files = inputs.get(entry)!;
    expect(files.some((f) => f.includes(held)), `${entry} should bundle ${held}`).toBe(true);
    expect(files.filter((f) => removed.some((r) => f.includes(r)))).toEqual([]);
  });

  it('the reports API group bundles the report port, not the PDF, ZIP, S3 or Lambda clients', () => {
    expect(reportsInputs.some((f) => f.includes(REPORTS_TRIM.held))).toBe(true);
    expect(reportsInputs.filter((f) => REPORTS_TRIM.removed.some((r) => f.includes(r)))).toEqual([]);
  });
});
