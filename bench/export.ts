/**
 * `npm run bench:export [-- --gb 5 --file-mb 8]`: the workspace export at a brokerage's size, on the local runtime's
 * services. Seeds one organization in DynamoDB Local (in memory) with `--gb` GB of uploaded documents (default 5) as
 * `--file-mb` MB files (default 8) of random, incompressible bytes in s3rver (under `.bench/export-s3`, deleted after),
 * then runs the export worker (functions/workspace-export) in a child process bundled with esbuild (no TypeScript
 * loader in it), and reports its peak RSS against the 512 MB target, the wall time, the archive's size and that the
 * archive lists every document with its size (its central directory read with yauzl, ZIP64 included).
 * Results: stdout and `.bench/export.json`. Exits non-zero only when the bench itself fails.
 */
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import yauzl from 'yauzl';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { startDynamoDbLocal } from '#lib/local/dynamodb-local';
import { ensureTable } from '#lib/local/ensure-table';
import { startLocalS3 } from '#lib/local/s3-local';
import { startLocalSmtp } from '#lib/local/smtp-sink';
import { db, resetDbClient, tableName } from '#db/client';
import { createOrganization } from '#db/orgs';
import { documentItem, type DocumentRecord } from '#db/documents';
import { getLatestExport, startExport } from '#db/workspace-exports';
import { documentKey, getObjectStream, putObject, resetBlobStore } from '#ports/blob-store';
import { REQUIRE_BANNER } from './bundles.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT_DIR = path.join(ROOT, '.bench');
const TARGET_RSS_MB = 512;
const log = (msg: string) => process.stderr.write(`[bench:export] ${msg}\n`);
const run = promisify(execFile);

const { values: args } = parseArgs({ options: { gb: { type: 'string', default: '5' }, 'file-mb': { type: 'string', default: '8' } } });
const totalBytes = Math.round(Number(args.gb) * 1024 ** 3);
const fileBytes = Math.round(Number(args['file-mb']) * 1024 ** 2);

/** Files of random bytes: one random pool, each file a different window of it with its own random head (no two alike). */
function fileBytesOf(pool: Buffer, i: number, size: number): Buffer {
  const start = (i * 7919 * 4096) % (pool.length - size);
  const out = Buffer.from(pool.subarray(start, start + size));
  randomBytes(4096).copy(out, 0);
  return out;
}

/** Names and sizes in the archive's central directory (yauzl reads ZIP64 too), from the stored object streamed to disk. */
async function listArchive(key: string, file: string): Promise<Map<string, number>> {
  const object = await getObjectStream(key);
  if (!object) throw new Error(`archive ${key} not found`);
  await pipeline(object.stream, createWriteStream(file));
  const zip = await new Promise<yauzl.ZipFile>((ok, ko) => yauzl.open(file, { lazyEntries: true }, (e, z) => (e ? ko(e) : ok(z!))));
  const entries = new Map<string, number>();
  await new Promise<void>((ok, ko) => {
    zip.on('entry', (e: yauzl.Entry) => {
      entries.set(e.fileName, e.uncompressedSize);
      zip.readEntry();
    });
    zip.on('end', ok).on('error', ko);
    zip.readEntry();
  });
  zip.close();
  return entries;
}

async function main() {
  const work = path.join(OUT_DIR, 'export-s3');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  log('starting DynamoDB Local (in memory), s3rver and the SMTP sink');
  const ddb = await startDynamoDbLocal({ timeoutMs: 60_000 });
  const s3 = await startLocalS3({ directory: path.join(work, 'objects') });
  const smtp = await startLocalSmtp({ directory: path.join(work, 'mail'), inboundDomain: 'reply.bench.example' });
  const env: Record<string, string> = {
    TABLE_NAME: 'bench-export',
    DYNAMODB_ENDPOINT: ddb.endpoint,
    AWS_REGION: 'local',
    S3_ENDPOINT: s3.endpoint,
    DOCUMENTS_BUCKET: s3.bucket,
    MAIL_TRANSPORT: 'local',
    LOCAL_SMTP_URL: smtp.url,
    MAIL_FROM_ADDRESS: 'service@bench.example',
    INBOUND_MAIL_DOMAIN: 'reply.bench.example',
  };
  Object.assign(process.env, env);
  resetDbClient();
  resetBlobStore();
  try {
    await ensureTable(ddb.endpoint, env.TABLE_NAME);
    const org = await createOrganization({ name: 'Export Realty', ownerEmail: 'owner@bench.example', ownerFirstName: 'Export', ownerLastName: 'Owner' });
    const count = Math.ceil(totalBytes / fileBytes);
    log(`seeding ${count} documents × ${fileBytes / 1024 / 1024} MB (${(count * fileBytes / 1024 ** 3).toFixed(2)} GB) of random bytes`);
    const pool = randomBytes(Math.max(64 * 1024 * 1024, fileBytes * 2));
    const seeded = Date.now();
    const docs: DocumentRecord[] = [];
    const now = new Date().toISOString();
    for (let i = 0; i < count; i += 4) {
      await Promise.all(
        Array.from({ length: Math.min(4, count - i) }, async (_, j) => {
          const id = randomUUID();
          const name = `contract-${i + j}.pdf`;
          const d: DocumentRecord = {
            id, orgId: org.orgId, transactionId: null, name, documentType: 'other', documentTypeSource: 'declared', contentType: 'application/pdf', sizeBytes: fileBytes,
            s3Key: documentKey(org.orgId, id, name), uploadState: 'uploaded', uploadError: null, extractionState: 'none', extractOnUpload: false, latestJobId: null,
            order: i + j, createdAt: now, updatedAt: now, uploadedAt: now, createdBy: null,
          };
          await putObject(d.s3Key, fileBytesOf(pool, i + j, fileBytes), 'application/pdf');
          docs.push(d);
        }),
      );
    }
    for (let i = 0; i < docs.length; i += 25) {
      await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: docs.slice(i, i + 25).map((d) => ({ PutRequest: { Item: documentItem(d) } })) } }));
    }
    log(`seeded in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);

    const exportId = randomUUID();
    await startExport({ exportId, orgId: org.orgId, state: 'building', requestedAt: now, requestedBy: org.ownerUserId, completedAt: null, expiresAt: null, s3Key: null, sizeBytes: null, recordCount: null, documentCount: null, error: null }, new Date(0));

    const bundle = path.join(OUT_DIR, 'bundles', 'export-worker', 'index.mjs');
    // As the function ships (ESM, minified, AWS SDK bundled), but with the local adapters (s3rver, SMTP) kept.
    await build({ entryPoints: [path.join(ROOT, 'bench/export-worker.ts')], absWorkingDir: ROOT, bundle: true, platform: 'node', format: 'esm', target: 'node22', minify: true, mainFields: ['module', 'main'], banner: { js: REQUIRE_BANNER }, outfile: bundle, logLevel: 'silent' });
    log('running the export worker in a child process');
    const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, POWERTOOLS_LOG_LEVEL: 'WARN', POWERTOOLS_METRICS_DISABLED: 'true', POWERTOOLS_TRACE_ENABLED: 'false' };
    delete childEnv.NODE_OPTIONS;
    const started = Date.now();
    const { stdout } = await run(process.execPath, [bundle, JSON.stringify({ orgId: org.orgId, exportId })], { env: childEnv, maxBuffer: 16 * 1024 * 1024, timeout: 60 * 60_000 });
    const wallS = (Date.now() - started) / 1000;
    const child = JSON.parse(stdout.trim().split('\n').pop()!) as { outcome: string; ms: number; cpuMs: number; peakRssMb: number; maxRssMb: number; heapUsedMb: number };
    const record = await getLatestExport(org.orgId, true);
    log('checking the archive (central directory)');
    const entries = await listArchive(record!.s3Key!, path.join(work, 'archive.zip'));
    const missing = docs.filter((d) => entries.get(`documents/${d.id}/${d.s3Key.split('/').pop()}`) !== fileBytes).length;
    const result = {
      documents: count,
      documentBytes: count * fileBytes,
      outcome: child.outcome,
      archiveBytes: record?.sizeBytes,
      archiveEntries: entries.size,
      documentsMissingOrWrongSize: missing,
      workerSeconds: child.ms / 1000,
      workerCpuSeconds: child.cpuMs / 1000,
      wallSeconds: wallS,
      peakRssMb: Math.max(child.peakRssMb, child.maxRssMb),
      heapUsedAtEndMb: child.heapUsedMb,
      throughputMBps: (count * fileBytes) / 1024 ** 2 / (child.ms / 1000),
      node: process.version,
      cpus: os.cpus().length,
    };
    const pass = result.peakRssMb <= TARGET_RSS_MB && missing === 0 && child.outcome === 'completed';
    console.log(
      [
        `Workspace export of ${(result.documentBytes / 1024 ** 3).toFixed(2)} GB (${count} random ${fileBytes / 1024 / 1024} MB documents), worker in a child process (node ${process.version}, ${os.cpus().length} CPUs)`,
        `  outcome ${child.outcome}; archive ${((result.archiveBytes ?? 0) / 1024 ** 3).toFixed(2)} GB, ${entries.size} entries, ${missing} documents missing or of the wrong size`,
        `  worker time ${result.workerSeconds.toFixed(1)} s (${result.throughputMBps.toFixed(0)} MB/s; CPU ${result.workerCpuSeconds.toFixed(1)} s), peak RSS ${result.peakRssMb} MB (target ≤ ${TARGET_RSS_MB} MB): ${pass ? 'PASS' : 'FAIL'}`,
      ].join('\n'),
    );
    writeFileSync(path.join(OUT_DIR, 'export.json'), `${JSON.stringify({ ...result, pass }, null, 2)}\n`);
  } finally {
    resetBlobStore();
    await smtp.stop().catch(() => undefined);
    await s3.stop().catch(() => undefined);
    await ddb.stop().catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
