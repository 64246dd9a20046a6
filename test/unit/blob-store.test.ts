/**
 * The blob-store port against a mocked S3 client (no network): the exact commands it sends, how a missing
 * object reads, presigned URLs (path-style on the local endpoint, expiry, signed Content-Type/Length, no
 * checksum parameters), and the tenant-prefixed document keys.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-vitest/extend';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, NotFound, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import {
  contentDisposition,
  deleteObject,
  documentKey,
  documentsBucket,
  getObjectBytes,
  headObject,
  parseDocumentKey,
  presignGet,
  presignPut,
  putObject,
  resetBlobStore,
  s3,
  safeFileName,
} from '#ports/blob-store';
import { encodeS3EventKey } from '#lib/local/s3-local';

const s3Mock = mockClient(S3Client);
const saved = { endpoint: process.env.S3_ENDPOINT, bucket: process.env.DOCUMENTS_BUCKET };
const KEY = 'org/o-1/documents/11111111-2222-4333-8444-555555555555/contract.pdf';

beforeEach(() => {
  s3Mock.reset();
  process.env.S3_ENDPOINT = 'http://127.0.0.1:4569';
  process.env.DOCUMENTS_BUCKET = 'unit-docs';
  resetBlobStore();
});
afterAll(() => {
  process.env.S3_ENDPOINT = saved.endpoint;
  process.env.DOCUMENTS_BUCKET = saved.bucket;
  if (saved.endpoint === undefined) delete process.env.S3_ENDPOINT;
  if (saved.bucket === undefined) delete process.env.DOCUMENTS_BUCKET;
  resetBlobStore();
  s3Mock.restore();
});

describe('commands', () => {
  it('putObject sends one PutObject with bucket, key, type and length', async () => {
    s3Mock.on(PutObjectCommand).resolves({});
    const body = Buffer.from('%PDF-1.7');
    await putObject(KEY, body, 'application/pdf');
    expect(s3Mock).toHaveReceivedCommandTimes(PutObjectCommand, 1);
    expect(s3Mock).toHaveReceivedCommandWith(PutObjectCommand, { Bucket: 'unit-docs', Key: KEY, Body: body, ContentType: 'application/pdf', ContentLength: 8 });
  });

  it('getObjectBytes reads the body, with an HTTP Range for a byte range', async () => {
    // The SDK's streaming body, reduced to the one method the port uses.
    s3Mock.on(GetObjectCommand).resolves({ Body: { transformToByteArray: async () => new Uint8Array(Buffer.from('%PDF-')) } as never });
    const bytes = await getObjectBytes(KEY, { start: 0, end: 4 });
    expect(Buffer.from(bytes).toString()).toBe('%PDF-');
    expect(s3Mock).toHaveReceivedCommandWith(GetObjectCommand, { Bucket: 'unit-docs', Key: KEY, Range: 'bytes=0-4' });
    await getObjectBytes(KEY);
    expect(s3Mock.commandCalls(GetObjectCommand)[1].args[0].input).toEqual({ Bucket: 'unit-docs', Key: KEY });
  });

  it('headObject gives size and type, and undefined for a missing object; other errors propagate', async () => {
    s3Mock.on(HeadObjectCommand, { Key: KEY }).resolves({ ContentLength: 1234, ContentType: 'application/pdf' });
    s3Mock.on(HeadObjectCommand, { Key: 'missing' }).rejects(new NotFound({ message: 'Not Found', $metadata: { httpStatusCode: 404 } }));
    s3Mock.on(HeadObjectCommand, { Key: 'denied' }).rejects(Object.assign(new Error('Access Denied'), { name: 'AccessDenied' }));
    expect(await headObject(KEY)).toEqual({ size: 1234, contentType: 'application/pdf' });
    expect(await headObject('missing')).toBeUndefined();
    await expect(headObject('denied')).rejects.toThrow('Access Denied');
  });

  it('deleteObject sends one DeleteObject', async () => {
    s3Mock.on(DeleteObjectCommand).resolves({});
    await deleteObject(KEY);
    expect(s3Mock).toHaveReceivedCommandWith(DeleteObjectCommand, { Bucket: 'unit-docs', Key: KEY });
  });

  it('documentsBucket throws when DOCUMENTS_BUCKET is unset', () => {
    delete process.env.DOCUMENTS_BUCKET;
    expect(() => documentsBucket()).toThrow('DOCUMENTS_BUCKET is not set');
  });

  it('the client is created once, and again after resetBlobStore', () => {
    const first = s3();
    expect(s3()).toBe(first);
    resetBlobStore();
    expect(s3()).not.toBe(first);
  });
});

describe('presigned URLs', () => {
  it('PUT: path-style on the local endpoint, 15-minute expiry, Content-Type and Content-Length signed, no checksum', async () => {
    const url = new URL(await presignPut(KEY, 'application/pdf', 900, 2048));
    expect(url.origin).toBe('http://127.0.0.1:4569');
    expect(url.pathname).toBe(`/unit-docs/${KEY}`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(url.searchParams.get('X-Amz-SignedHeaders')!.split(';').sort()).toEqual(['content-length', 'content-type', 'host']);
    expect(url.searchParams.get('X-Amz-Credential')).toMatch(/^S3RVER\//);
    expect([...url.searchParams.keys()].filter((k) => /checksum/i.test(k))).toEqual([]);
    expect(s3Mock.calls()).toHaveLength(0);
  });

  it('GET: 5-minute expiry and an attachment file name', async () => {
    const url = new URL(await presignGet(KEY, 300, 'Contract – Smith.pdf'));
    expect(url.searchParams.get('X-Amz-Expires')).toBe('300');
    expect(url.searchParams.get('response-content-disposition')).toBe(`attachment; filename="Contract _ Smith.pdf"; filename*=UTF-8''Contract%20%E2%80%93%20Smith.pdf`);
    expect(new URL(await presignGet(KEY, 60)).searchParams.has('response-content-disposition')).toBe(false);
  });

  it('content disposition escapes quotes and parentheses', () => {
    expect(contentDisposition('a"b(1).pdf')).toBe(`attachment; filename="a_b(1).pdf"; filename*=UTF-8''a%22b%281%29.pdf`);
  });

  it('content disposition of a name stored with a lone surrogate (before the edge refused them) does not throw', () => {
    expect(contentDisposition('contract\ud800.pdf')).toBe(`attachment; filename="contract_.pdf"; filename*=UTF-8''contract%EF%BF%BD.pdf`);
  });
});

describe('document keys', () => {
  it('are tenant-prefixed with a safe file name', () => {
    expect(documentKey('org-9', 'doc-1', 'TREC 20-18 (final) Résumé.pdf')).toBe('org/org-9/documents/doc-1/TREC_20-18_final_Resume.pdf');
    expect(safeFileName('../../etc/passwd')).toBe('.._.._etc_passwd');
    expect(safeFileName('...')).toBe('document.pdf');
    expect(safeFileName('契約.pdf')).toBe('_.pdf');
    expect(safeFileName(`${'x'.repeat(200)}.pdf`)).toHaveLength(120);
  });

  it('parse back from raw and notification-encoded keys; other keys are not documents', () => {
    expect(parseDocumentKey(KEY)).toEqual({ orgId: 'o-1', documentId: '11111111-2222-4333-8444-555555555555', fileName: 'contract.pdf' });
    const spaced = 'org/o-1/documents/11111111-2222-4333-8444-555555555555/my file.pdf';
    expect(encodeS3EventKey(spaced)).toBe('org/o-1/documents/11111111-2222-4333-8444-555555555555/my+file.pdf');
    expect(parseDocumentKey(encodeS3EventKey(spaced))?.fileName).toBe('my file.pdf');
    expect(parseDocumentKey('ocr/o-1/job-1/blocks.json')).toBeUndefined();
    expect(parseDocumentKey('org/o-1/documents/not-a-uuid/x.pdf')).toBeUndefined();
    expect(parseDocumentKey('org/o-1/documents/11111111-2222-4333-8444-555555555555/a/b.pdf')).toBeUndefined();
  });
});
