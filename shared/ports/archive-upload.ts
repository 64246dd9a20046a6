/**
 * A ZIP archive streamed into the documents bucket: entries are zipped one after another (yazl) into an S3 multipart
 * upload (`@aws-sdk/lib-storage` `Upload`), so memory stays at a few parts whatever the archive's size. Entries read
 * from S3 are streamed from `GetObject` with backpressure (the next object is opened once the previous one is
 * consumed); nothing is buffered whole but the small entries given as bytes.
 *
 * Why yazl and not fflate's streaming `Zip`: fflate 0.8 writes 32-bit sizes and offsets only (no ZIP64 on the write
 * side), so an archive over 4 GiB (a brokerage's workspace export) would be corrupt. yazl switches each entry and the
 * central directory to ZIP64 when needed (APPNOTE.TXT 4.3.9, 4.4.x).
 */
import { PassThrough, Transform, type Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { Upload } from '@aws-sdk/lib-storage';
import { ZipFile } from 'yazl';
import { documentsBucket, s3 } from '#ports/blob-store';

/**
 * Multipart part size (bytes). S3 allows 10,000 parts, so an archive holds at most 160 GB; with `QUEUE_SIZE` parts
 * in flight the upload holds about 64 MB.
 */
export const ARCHIVE_PART_BYTES = 16 * 1024 * 1024;
const QUEUE_SIZE = 4;

/** Options of an entry: `compress` deflates it (JSON, text); leave it false for PDFs and images (compressed already). */
export interface EntryOptions {
  compress: boolean;
  mtime?: Date;
}

/** An archive being written; add entries in order, then `close` (or `abort`). */
export interface ArchiveUpload {
  /** Adds a small entry held in memory (JSON, a rendered PDF). */
  addBytes(path: string, bytes: Uint8Array, options: EntryOptions): void;
  /**
   * Adds an entry read from `stream`; resolves once the stream is consumed (so the caller opens the next one only
   * then). `size`, when known, is checked by yazl (a short or long stream fails the archive).
   * @throws Error when the stream fails (the archive is then unusable: `abort` it)
   */
  addStream(path: string, stream: Readable, options: EntryOptions & { size?: number }): Promise<void>;
  /**
   * Writes the central directory and completes the multipart upload.
   * @returns the archive's size in bytes
   * @throws Error when zipping or the upload failed (the upload is aborted first)
   */
  close(): Promise<{ sizeBytes: number }>;
  /** Abandons the archive: aborts the multipart upload (its parts are deleted). Never throws. */
  abort(): Promise<void>;
}

/**
 * Starts an archive at `key` in the documents bucket.
 * @param contentType usually `application/zip`
 */
export function startArchiveUpload(key: string, contentType = 'application/zip'): ArchiveUpload {
  const zip = new ZipFile();
  let sizeBytes = 0;
  // Counts the bytes on their way to the upload without putting the stream in flowing mode.
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      sizeBytes += chunk.length;
      cb(null, chunk);
    },
  });
  const body = new PassThrough();
  let failure: unknown;
  /** The entry being read: destroyed on a failure, so `addStream` never waits on a stalled pipe. */
  let current: Readable | undefined;
  const fail = (err: unknown) => {
    failure ??= err;
    const e = err instanceof Error ? err : new Error(String(err));
    current?.destroy(e);
    body.destroy(e);
  };
  zip.on('error', fail);
  (zip.outputStream as Readable).on('error', fail).pipe(counter).on('error', fail).pipe(body);

  const upload = new Upload({
    client: s3(),
    params: { Bucket: documentsBucket(), Key: key, Body: body, ContentType: contentType },
    partSize: ARCHIVE_PART_BYTES,
    queueSize: QUEUE_SIZE,
    leavePartsOnError: false,
  });
  const done = upload.done();
  done.catch(fail); // an upload failure stops the zipping (observed again in close())

  const entry = (o: EntryOptions & { size?: number }) => ({ compress: o.compress, mtime: o.mtime ?? new Date(), ...(o.size !== undefined && { size: o.size }) });

  return {
    addBytes(path, bytes, options) {
      zip.addBuffer(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), path, entry(options));
    },
    async addStream(path, stream, options) {
      if (failure) throw failure;
      current = stream;
      zip.addReadStream(stream, path, entry(options));
      try {
        await finished(stream);
      } finally {
        current = undefined;
      }
      if (failure) throw failure;
    },
    async close() {
      if (failure) {
        await this.abort();
        throw failure;
      }
      zip.end();
      try {
        await done;
      } catch (err) {
        await this.abort();
        throw failure ?? err;
      }
      if (failure) throw failure;
      return { sizeBytes };
    },
    async abort() {
      body.destroy();
      await upload.abort().catch(() => undefined);
    },
  };
}
