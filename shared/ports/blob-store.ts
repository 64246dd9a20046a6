/**
 * The blob store port: uploaded documents in S3. Presigned URLs and the single-object calls of the request path
 * (put, head, delete) go through shared/ports/s3-object-requests.ts, without the S3 client, so an API group that
 * makes only those bundles none of it; reading, streaming, listing and batch deletes (workers) use the S3 client,
 * created once per process, lazily, so the local runtime and tests can set the environment first.
 * `S3_ENDPOINT` points both at the local s3rver (path-style addressing, s3rver's dummy credentials
 * `S3RVER`/`S3RVER`); in AWS it is unset and the SDK's defaults (region, credentials from the Lambda role) apply.
 * The bucket is `DOCUMENTS_BUCKET`.
 *
 * Keys are tenant-prefixed: `org/<orgId>/documents/<documentId>/<safeFileName>` (see `documentKey`), so an
 * S3 notification alone names the organization and the document it belongs to.
 */
import {
  DeleteObjectsCommand,
  ListObjectsV2Command,
  GetObjectCommand,
  NotFound,
  NoSuchKey,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Readable } from 'node:stream';
import { traced } from '#observability/powertools';
import { config } from '#ports/config';
import { LOCAL_S3_CREDENTIALS, presignObjectUrl, sendObjectRequest } from '#ports/s3-object-requests';
import { ORG_OBJECT_ROOTS } from '#ports/object-prefixes';

let client: S3Client | undefined;

/**
 * The shared S3 client (reads, listings, batch deletes and the archive uploads of shared/ports/archive-upload.ts).
 * Checksums are computed and validated only when an operation requires them (the SDK's default, `WHEN_SUPPORTED`,
 * adds one to every upload and checks every download). Captured by the Tracer when tracing is on.
 */
export function s3(): S3Client {
  if (!client) {
    const endpoint = config.s3Endpoint;
    client = traced(new S3Client({
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...(endpoint
        ? { endpoint, forcePathStyle: true, region: config.awsRegion ?? 'us-east-1', credentials: { ...LOCAL_S3_CREDENTIALS } }
        : {}),
    }));
  }
  return client;
}

/** Drops the cached client (tests and the local runtime switching endpoints). */
export function resetBlobStore(): void {
  client?.destroy();
  client = undefined;
}

/** The documents bucket (`DOCUMENTS_BUCKET`). @throws ConfigurationError when unset (a deployment error, never a client one) */
export function documentsBucket(): string {
  return config.documentsBucket;
}

/**
 * A file name safe in an S3 key and in every notification encoding: letters, digits, `.`, `_` and `-`
 * only (anything else becomes `_`), at most 120 characters, never empty or dot-only. S3 notifications
 * URL-encode keys (a space arrives as `+`); with this alphabet the encoded and raw forms are the same.
 * @example safeFileName('Résumé 20-18 (final).pdf') === 'R_sum_20-18_final_.pdf'
 */
export function safeFileName(name: string): string {
  const cleaned = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/_+/g, '_')
    .slice(-120);
  return /^[._]*$/.test(cleaned) ? 'document.pdf' : cleaned;
}

/**
 * Every key prefix holding an organization's objects: `<root><orgId>/` for each of `ORG_OBJECT_ROOTS`
 * (shared/ports/object-prefixes.ts: documents, OCR blocks files, export archives, stored reports). The purge deletes
 * everything under these.
 * @example orgObjectPrefixes('o1') // ['org/o1/', 'ocr/o1/', 'exports/o1/', 'reports/o1/']
 */
export const orgObjectPrefixes = (orgId: string): string[] => ORG_OBJECT_ROOTS.map((root) => `${root}${orgId}/`);

/** The object key of a workspace export archive: `exports/<orgId>/<exportId>.zip`. */
export const exportArchiveKey = (orgId: string, exportId: string): string => `exports/${orgId}/${exportId}.zip`;

/** The object key of a document: `org/<orgId>/documents/<documentId>/<safeFileName>`. */
export const documentKey = (orgId: string, documentId: string, fileName: string): string =>
  `org/${orgId}/documents/${documentId}/${safeFileName(fileName)}`;

/**
 * The parts of a document key, or undefined for any other key. Accepts the URL-encoded form S3
 * notifications carry (`+` for space, `%XX`).
 */
export function parseDocumentKey(key: string): { orgId: string; documentId: string; fileName: string } | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(key.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
  const m = /^org\/([^/]+)\/documents\/([0-9a-f-]{36})\/([^/]+)$/.exec(decoded);
  return m ? { orgId: m[1], documentId: m[2], fileName: m[3] } : undefined;
}

/**
 * Stores `body` at `key` in the documents bucket (one `PutObject`, type and length signed).
 * @throws S3RequestError when S3 refuses it (after retries of a 5xx)
 */
export async function putObject(key: string, body: Uint8Array, contentType: string): Promise<void> {
  await sendObjectRequest('PUT', key, { body, headers: { 'content-type': contentType, 'content-length': String(body.byteLength) } });
}

/**
 * The object's bytes, or a byte range of them: one presigned `GetObject` sent with `fetch`
 * (shared/ports/s3-object-requests.ts), so a function that only reads whole objects needs no S3 client.
 * @param range inclusive byte offsets (HTTP `Range: bytes=start-end`); a range past the end is cut short
 * @param bucket default the documents bucket (`DOCUMENTS_BUCKET`)
 * @throws S3RequestError named `NoSuchKey` when the object does not exist
 */
export async function getObjectBytes(key: string, range?: { start: number; end: number }, bucket?: string): Promise<Uint8Array> {
  const res = await sendObjectRequest('GET', key, { bucket, headers: range ? { range: `bytes=${range.start}-${range.end}` } : undefined });
  return res!.body;
}

/**
 * The object as a stream (the `GetObject` body, read with backpressure) and its size in bytes; undefined when it
 * does not exist. The caller must consume or destroy the stream (it holds a connection).
 */
export async function getObjectStream(key: string): Promise<{ stream: Readable; sizeBytes: number } | undefined> {
  try {
    const out = await s3().send(new GetObjectCommand({ Bucket: documentsBucket(), Key: key }));
    return { stream: (out.Body as Readable | undefined) ?? Readable.from([]), sizeBytes: out.ContentLength ?? 0 };
  } catch (err) {
    if (isMissing(err)) return undefined;
    throw err;
  }
}

/**
 * Size (bytes) and content type of an object (one `HeadObject`); undefined when it does not exist.
 * @throws S3RequestError for any other refusal (`Forbidden`)
 */
export async function headObject(key: string): Promise<{ size: number; contentType: string | null } | undefined> {
  const res = await sendObjectRequest('HEAD', key);
  return res && { size: Number(res.headers.get('content-length') ?? 0), contentType: res.headers.get('content-type') };
}

/**
 * A presigned PUT URL for `key`. The uploader must send `Content-Type: <contentType>`; with
 * `contentLength` the signature also covers `Content-Length`, so S3 refuses a body of another size.
 * @param expiresSeconds validity in seconds (S3 allows at most 604 800)
 */
export async function presignPut(key: string, contentType: string, expiresSeconds: number, contentLength?: number): Promise<string> {
  return presignObjectUrl('PUT', key, {
    expiresSeconds,
    // Content-Type is signed too, so S3 refuses another type.
    headers: { 'content-type': contentType, ...(contentLength !== undefined ? { 'content-length': String(contentLength) } : {}) },
  });
}

/**
 * A presigned GET URL for `key`.
 * @param expiresSeconds validity in seconds
 * @param downloadName when given, the response is an attachment with this file name (RFC 6266
 *   `Content-Disposition`, with an RFC 5987 `filename*` for non-ASCII names)
 */
export async function presignGet(key: string, expiresSeconds: number, downloadName?: string): Promise<string> {
  return presignObjectUrl('GET', key, {
    expiresSeconds,
    query: downloadName ? { 'response-content-disposition': contentDisposition(downloadName) } : undefined,
  });
}

/**
 * Deletes the object at `key` (one `DeleteObject`; deleting a missing object succeeds, as in S3).
 * @throws S3RequestError when S3 refuses it
 */
export async function deleteObject(key: string): Promise<void> {
  await sendObjectRequest('DELETE', key);
}

/**
 * Keys under `prefix` (all pages of `ListObjectsV2`, 1,000 per page).
 * @returns the keys, in S3's (lexicographic) order
 */
export async function listKeys(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const out = await s3().send(new ListObjectsV2Command({ Bucket: documentsBucket(), Prefix: prefix, ContinuationToken: token }));
    keys.push(...(out.Contents ?? []).flatMap((o) => (o.Key ? [o.Key] : [])));
    token = out.IsTruncated ? out.NextContinuationToken : undefined;
  } while (token);
  return keys;
}

/**
 * Deletes `keys`, 1,000 per `DeleteObjects` (missing keys succeed, as in S3).
 * @throws Error naming the first key S3 reported as not deleted
 */
export async function deleteKeys(keys: readonly string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 1000) {
    const batch = keys.slice(i, i + 1000);
    const out = await s3().send(new DeleteObjectsCommand({ Bucket: documentsBucket(), Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }));
    const failed = out.Errors?.[0];
    if (failed) throw new Error(`S3 did not delete ${failed.Key}: ${failed.Code ?? 'error'}`);
  }
}

/**
 * `attachment; filename="<ascii>"; filename*=UTF-8''<percent-encoded>` (RFC 6266 §4.3, RFC 5987). A name that is
 * not well-formed Unicode (stored before the edge refused such names) has its lone surrogates replaced by
 * U+FFFD, where `encodeURIComponent` would throw.
 */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(fileName.toWellFormed()).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

function isMissing(err: unknown): boolean {
  if (err instanceof NotFound || err instanceof NoSuchKey) return true;
  return err instanceof S3ServiceException && (err.$metadata?.httpStatusCode === 404 || err.name === 'NotFound' || err.name === 'NoSuchKey');
}
