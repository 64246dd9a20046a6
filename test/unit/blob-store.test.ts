/**
 * The blob-store port against a mocked S3 client (no network): the exact commands its S3-client calls send, how a
 * missing object reads, presigned URLs (path-style on the local endpoint, expiry, signed Content-Type/Length, no
 * checksum parameters, no S3-client call), and the tenant-prefixed document keys. Put, head and delete go without
 * the S3 client: test/unit/s3-object-requests.test.ts runs them against s3rver.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-vitest/extend';
import { S3Client } from '@aws-sdk/client-s3';
import {
  contentDisposition,
  documentKey,
  documentsBucket,
  parseDocumentKey,
  presignGet,
  presignPut,
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
