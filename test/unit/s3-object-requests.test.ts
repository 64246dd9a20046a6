/**
 * S3 object requests without the S3 client (shared/ports/s3-object-requests.ts) and the blob-store calls built on
 * them: presigned URLs are byte for byte the S3 client's own `getSignedUrl` (the SDK as the oracle, at one fixed
 * clock) in each addressing mode; put, head and delete against s3rver on 127.0.0.1; S3's error code on a refusal;
 * up to 3 attempts on a 5xx.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { contentDisposition, deleteObject, getObjectBytes, headObject, presignGet, presignPut, putObject, resetBlobStore } from '#ports/blob-store';
import { presignObjectUrl, S3RequestError, sendObjectRequest } from '#ports/s3-object-requests';
import { startLocalS3, type LocalS3 } from '#lib/local/s3-local';

const ENV_KEYS = ['S3_ENDPOINT', 'DOCUMENTS_BUCKET', 'AWS_REGION', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_ENDPOINT_URL', 'AWS_ENDPOINT_URL_S3'];
const saved = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
const restoreEnv = () => {
  for (const k of ENV_KEYS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
};
const setEnv = (env: Record<string, string>) => {
  for (const k of ENV_KEYS) delete process.env[k];
  Object.assign(process.env, env);
};
afterAll(() => {
  restoreEnv();
  resetBlobStore();
});

/** A key with a space and each character `encodeURIComponent` leaves alone but SigV4 escapes. */
const KEY = "org/o-1/documents/11111111-2222-4333-8444-555555555555/a b(1)!'*~.pdf";
const AWS_ENV = { AWS_REGION: 'us-east-2', AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI', AWS_SESSION_TOKEN: 'token/with+=' };

describe('presigned URLs are the S3 client’s own', () => {
  afterEach(() => {
    vi.useRealTimers();
    restoreEnv();
  });

  it.each([
    ['s3rver (S3_ENDPOINT): path-style, its credentials', { S3_ENDPOINT: 'http://127.0.0.1:4569', DOCUMENTS_BUCKET: 'tcs-documents' }, 'http://127.0.0.1:4569/tcs-documents/'],
    ['AWS: virtual-hosted, the role’s session credentials', { ...AWS_ENV, DOCUMENTS_BUCKET: 'tcs-documents-123' }, 'https://tcs-documents-123.s3.us-east-2.amazonaws.com/'],
    ['AWS with a dotted bucket name: path-style', { ...AWS_ENV, DOCUMENTS_BUCKET: 'docs.example.com' }, 'https://s3.us-east-2.amazonaws.com/docs.example.com/'],
    ['AWS_ENDPOINT_URL (the assembly runtime’s gateway): path-style', { ...AWS_ENV, DOCUMENTS_BUCKET: 'tcs-documents-123', AWS_ENDPOINT_URL: 'http://127.0.0.1:5555' }, 'http://127.0.0.1:5555/tcs-documents-123/'],
  ])('%s', async (_mode, env: Record<string, string>, prefix) => {
    setEnv(env);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-27T04:32:09Z'));
    const local = Boolean(env.S3_ENDPOINT);
    const client = new S3Client({
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...(local ? { endpoint: env.S3_ENDPOINT, forcePathStyle: true, region: 'us-east-1', credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } } : {}),
    });
    const Bucket = env.DOCUMENTS_BUCKET;
    const disposition = contentDisposition('Contract – Smith (1).pdf');
    const put = await presignPut(KEY, 'application/pdf', 900, 2048);
    expect(put).toBe(
      await getSignedUrl(client, new PutObjectCommand({ Bucket, Key: KEY, ContentType: 'application/pdf', ContentLength: 2048 }), {
        expiresIn: 900,
        signableHeaders: new Set(['content-type']),
      }),
    );
    expect(put.startsWith(prefix)).toBe(true);
    expect(new URL(put).searchParams.get('X-Amz-Credential')).toMatch(local ? /^S3RVER\/20261127\/us-east-1\/s3\// : /^AKIDEXAMPLE\/20261127\/us-east-2\/s3\//);
    expect(await presignGet(KEY, 300, 'Contract – Smith (1).pdf')).toBe(
      await getSignedUrl(client, new GetObjectCommand({ Bucket, Key: KEY, ResponseContentDisposition: disposition }), { expiresIn: 300 }),
    );
    expect(await presignObjectUrl('DELETE', KEY, { expiresSeconds: 60 })).toBe(
      await getSignedUrl(client, new DeleteObjectCommand({ Bucket, Key: KEY }), { expiresIn: 60 }),
    );
    client.destroy();
  });
});

describe('object requests against s3rver', () => {
  let s3: LocalS3;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 's3-object-requests-'));
    s3 = await startLocalS3({ directory: dir, bucket: 'unit-object-requests' });
    setEnv({ S3_ENDPOINT: s3.endpoint, DOCUMENTS_BUCKET: s3.bucket });
    resetBlobStore();
  });
  afterAll(async () => {
    await s3?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('putObject stores the bytes with their type; headObject gives size and type; deleteObject removes it', async () => {
    const body = Buffer.from('%PDF-1.7 unit');
    await putObject(KEY, body, 'application/pdf');
    expect(await headObject(KEY)).toEqual({ size: body.byteLength, contentType: 'application/pdf' });
    expect(Buffer.from(await getObjectBytes(KEY)).toString()).toBe('%PDF-1.7 unit');
    await deleteObject(KEY);
    expect(await headObject(KEY)).toBeUndefined();
  });

  it('getObjectBytes reads the whole object, or the byte range it is given (HTTP Range, inclusive)', async () => {
    await putObject(KEY, Buffer.from('%PDF-1.7 ranged'), 'application/pdf');
    expect(Buffer.from(await getObjectBytes(KEY, { start: 0, end: 4 })).toString()).toBe('%PDF-');
    expect(Buffer.from(await getObjectBytes(KEY, { start: 9, end: 400 })).toString()).toBe('ranged');
    expect(Buffer.from(await getObjectBytes(KEY)).toString()).toBe('%PDF-1.7 ranged');
    await deleteObject(KEY);
  });

  it('a missing object reads as undefined (HEAD) or NoSuchKey (GET), and deleting it succeeds (as in S3)', async () => {
    expect(await headObject('org/o-1/documents/none.pdf')).toBeUndefined();
    await expect(getObjectBytes('org/o-1/documents/none.pdf')).rejects.toMatchObject({ name: 'NoSuchKey', status: 404 });
    await expect(deleteObject('org/o-1/documents/none.pdf')).resolves.toBeUndefined();
  });

  it('a refused request throws with S3’s error code', async () => {
    process.env.DOCUMENTS_BUCKET = 'no-such-bucket';
    try {
      const err = await putObject(KEY, Buffer.from('x'), 'application/pdf').then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(S3RequestError);
      expect(err).toMatchObject({ name: 'NoSuchBucket', status: 404 });
    } finally {
      process.env.DOCUMENTS_BUCKET = s3.bucket;
    }
  });
});

describe('retries', () => {
  let server: http.Server;
  let statuses: number[];
  const seen: string[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url?.split('?')[0]}`);
      res.statusCode = statuses.shift() ?? 200;
      res.end(res.statusCode >= 300 ? '<Error><Code>SlowDown</Code><Message>Reduce your request rate.</Message></Error>' : '');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    setEnv({ S3_ENDPOINT: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, DOCUMENTS_BUCKET: 'b-retry' });
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('a 5xx is tried again, up to 3 attempts in all', async () => {
    statuses = [503, 500];
    seen.length = 0;
    await expect(sendObjectRequest('DELETE', 'k/1')).resolves.toMatchObject({ status: 200 });
    expect(seen).toEqual(['DELETE /b-retry/k/1', 'DELETE /b-retry/k/1', 'DELETE /b-retry/k/1']);
  });

  it('the third 5xx is thrown with S3’s code; a 4xx is not tried again', async () => {
    statuses = [503, 503, 503];
    seen.length = 0;
    await expect(sendObjectRequest('DELETE', 'k/2')).rejects.toMatchObject({ name: 'SlowDown', status: 503 });
    expect(seen).toHaveLength(3);
    statuses = [403];
    seen.length = 0;
    await expect(sendObjectRequest('PUT', 'k/3', { body: Buffer.from('x') })).rejects.toMatchObject({ status: 403 });
    expect(seen).toHaveLength(1);
  });
});
