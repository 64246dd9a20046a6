/**
 * The streamed archive (shared/ports/archive-upload.ts) on s3rver: 96 MB of random objects streamed from S3 into a
 * multipart upload of several parts, read back and unzipped with yauzl. Every entry is listed with its size and its
 * CRC-32 recomputed from the unzipped bytes matches both the central directory and the original object.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { startLocalS3, type LocalS3 } from '#lib/local/s3-local';
import { getObjectBytes, getObjectStream, putObject, resetBlobStore } from '#ports/blob-store';
import { ARCHIVE_PART_BYTES, startArchiveUpload } from '#ports/archive-upload';

const FILES = 12;
const FILE_BYTES = 8 * 1024 * 1024;

let s3: LocalS3;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'archive-upload-'));
  s3 = await startLocalS3({ directory: dir });
  process.env.S3_ENDPOINT = s3.endpoint;
  process.env.DOCUMENTS_BUCKET = s3.bucket;
  resetBlobStore();
});

afterAll(async () => {
  resetBlobStore();
  await s3?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Every entry of a ZIP held in `buf`: name, sizes from the central directory, CRC-32 stored and recomputed. */
async function unzipEntries(buf: Buffer) {
  const zip = await new Promise<yauzl.ZipFile>((ok, ko) => yauzl.fromBuffer(buf, { lazyEntries: true }, (e, z) => (e ? ko(e) : ok(z!))));
  const out: { name: string; size: number; storedCrc: number; crc: number; method: number; text?: string }[] = [];
  await new Promise<void>((ok, ko) => {
    zip.on('error', ko).on('end', ok);
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, async (err, stream) => {
        if (err) return ko(err);
        let crc = 0;
        let size = 0;
        const chunks: Buffer[] = [];
        for await (const chunk of stream!) {
          crc = crc32(chunk, crc);
          size += chunk.length;
          if (entry.fileName.endsWith('.json')) chunks.push(chunk);
        }
        expect(size).toBe(entry.uncompressedSize);
        out.push({ name: entry.fileName, size: entry.uncompressedSize, storedCrc: entry.crc32, crc, method: entry.compressionMethod, ...(chunks.length && { text: Buffer.concat(chunks).toString() }) });
        zip.readEntry();
      });
    });
    zip.readEntry();
  });
  return out;
}

describe('streamed archive into a multipart upload', () => {
  it('holds every object with its size and CRC-32, documents stored and JSON deflated', async () => {
    const originals = new Map<string, { size: number; crc: number }>();
    for (let i = 0; i < FILES; i++) {
      const bytes = randomBytes(FILE_BYTES - i * 1000);
      const key = `org/o1/documents/d${i}/file-${i}.pdf`;
      await putObject(key, bytes, 'application/pdf');
      originals.set(`documents/d${i}/file-${i}.pdf`, { size: bytes.length, crc: crc32(bytes) });
    }
    const archive = startArchiveUpload('exports/o1/test.zip');
    for (let i = 0; i < FILES; i++) {
      const object = await getObjectStream(`org/o1/documents/d${i}/file-${i}.pdf`);
      await archive.addStream(`documents/d${i}/file-${i}.pdf`, object!.stream, { compress: false, size: object!.sizeBytes });
    }
    const records = JSON.stringify(Array.from({ length: 5000 }, (_, n) => ({ id: n, entity: 'Task', title: `Task ${n}` })));
    await archive.addStream('records/Task.json', Readable.from([Buffer.from(records)]), { compress: true });
    const { sizeBytes } = await archive.close();

    const zipBytes = Buffer.from(await getObjectBytes('exports/o1/test.zip'));
    expect(zipBytes.length).toBe(sizeBytes);
    expect(sizeBytes).toBeGreaterThan(4 * ARCHIVE_PART_BYTES); // several parts were uploaded
    const entries = await unzipEntries(zipBytes);
    expect(entries.map((e) => e.name)).toEqual([...originals.keys(), 'records/Task.json']);
    for (const e of entries.filter((x) => x.name.startsWith('documents/'))) {
      expect({ name: e.name, size: e.size, crc: e.crc, storedCrc: e.storedCrc, method: e.method }).toEqual({ name: e.name, ...originals.get(e.name)!, storedCrc: originals.get(e.name)!.crc, method: 0 });
    }
    const json = entries.find((e) => e.name === 'records/Task.json')!;
    expect(json.method).toBe(8);
    expect(json.crc).toBe(json.storedCrc);
    expect(JSON.parse(json.text!)).toHaveLength(5000);
  });

  it('a failing upload fails the archive instead of stalling it', async () => {
    process.env.DOCUMENTS_BUCKET = 'no-such-bucket';
    try {
      const archive = startArchiveUpload('exports/o1/failed.zip');
      const big = Readable.from((function* () {
        for (let i = 0; i < 48; i++) yield randomBytes(1024 * 1024);
      })());
      const run = async () => {
        await archive.addStream('big.bin', big, { compress: false });
        return archive.close();
      };
      await expect(run()).rejects.toThrow(/bucket/i);
    } finally {
      process.env.DOCUMENTS_BUCKET = s3.bucket;
    }
  });

  it('missing objects are reported as absent, and an aborted archive leaves no object', async () => {
    expect(await getObjectStream('org/o1/documents/none/missing.pdf')).toBeUndefined();
    const archive = startArchiveUpload('exports/o1/aborted.zip');
    archive.addBytes('a.json', Buffer.from('{}'), { compress: true });
    await archive.abort();
    await expect(getObjectBytes('exports/o1/aborted.zip')).rejects.toThrow();
  });
});
