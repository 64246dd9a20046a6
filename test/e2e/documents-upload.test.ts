/**
 * Uploads over HTTP against a real local s3rver whose ObjectCreated events reach the real upload handler:
 * presigned PUT (works; refused once expired), base64 upload (422 when empty, not a PDF, not base64 or over
 * the limit), the checks of an uploaded file (a non-PDF ends in a FAILED job, never one stuck running),
 * starting extractions (422 on `documentId` while one runs: not (IK), so no 409), download/source URLs, and tenant isolation (404).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { TestApi, TestOrg } from '../support/http-client.ts';
import { createDeal, eventsFor, outboxEvents } from './deal-fixtures.ts';
import { extractionResult, pdfBytes, startDocumentsHarness, waitFor, type DocumentsHarness, type TestS3 } from './documents-fixtures.ts';
import { headObject, presignPut, putObject } from '#ports/blob-store';
import { handler as documentUploaded } from '#functions/document-uploaded/handler';
import type { S3Event } from 'aws-lambda';
import { markJobRunning } from '#db/extraction-jobs';
import { completeJob } from '#use-cases/finish-extraction';
import { MAX_DOCUMENT_BYTES } from '#domain/documents';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';

/** Number of document items of the organization (a consistent scan of the test table). */
const documentCount = async (orgId: string) =>
  (await db().send(new ScanCommand({ TableName: tableName(), FilterExpression: 'entity = :e AND orgId = :o', ExpressionAttributeValues: { ':e': 'Document', ':o': orgId }, ConsistentRead: true, Select: 'COUNT' }))).Count;

let h: DocumentsHarness;
let t: TestApi;
let s3: TestS3;
let org: TestOrg;
let other: TestOrg;
beforeAll(async () => {
  h = await startDocumentsHarness('Upload Realty', 'Other Realty');
  ({ t, s3, org, other } = h);
});
afterAll(() => h.close());

const uploadUrl = (body: Record<string, unknown>, key = org.keys.draft) => t.call('POST', '/api/v1/documents/upload-url', { key, body });
const getDoc = (id: string, key = org.keys.read) => t.call('GET', `/api/v1/documents/${id}`, { key });
const getJob = (id: string, key = org.keys.read) => t.call('GET', `/api/v1/extractions/${id}`, { key });
const put = (url: string, body: Buffer, contentType = 'application/pdf') => fetch(url, { method: 'PUT', headers: { 'content-type': contentType }, body });
/** Polls the document until its upload was processed, then returns it. */
const processed = (id: string) => waitFor(async () => ((await getDoc(id)).body.data.uploadState !== 'awaiting_upload' ? (await getDoc(id)).body.data : undefined));

describe('POST /documents/upload-url and the presigned PUT', () => {
  it('a PDF put to the URL is recorded as uploaded and its extraction starts', async () => {
    const deal = await createDeal(org, '12 Upload Ln');
    const file = pdfBytes('contract');
    const r = await uploadUrl({ fileName: 'TREC 20-18 contract.pdf', sizeBytes: file.length, transactionId: deal.id });
    expect(r.status).toBe(200);
    const d = r.body.data;
    expect(d).toMatchObject({
      documentId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      method: 'PUT',
      requiredHeaders: { 'content-type': 'application/pdf' },
      key: `org/${org.orgId}/documents/${d.documentId}/TREC_20-18_contract.pdf`,
      document: { id: d.documentId, transactionId: deal.id, documentType: 'purchase_contract', uploadState: 'awaiting_upload', extractionState: 'none', latestJobId: null },
    });
    expect(d.uploadUrl).toContain('X-Amz-Expires=900');
    const ttl = Date.parse(d.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(890_000);
    expect(ttl).toBeLessThanOrEqual(900_000);

    expect((await put(d.uploadUrl, file)).status).toBe(200);
    const doc = await processed(d.documentId);
    expect(doc).toMatchObject({ uploadState: 'uploaded', sizeBytes: file.length, extractionState: 'queued', latestJobId: expect.any(String) });
    const job = await getJob(doc.latestJobId);
    expect(job.status).toBe(200);
    expect(job.body.data).toMatchObject({ jobId: doc.latestJobId, state: 'queued', documentId: d.documentId, transactionId: deal.id, result: null, error: null, appliedTransactionId: null });
    expect(s3.started).toContainEqual({ orgId: org.orgId, jobId: doc.latestJobId, documentId: d.documentId, bucket: s3.bucket, key: d.key });
    const [uploaded] = await eventsFor(org.orgId, 'document.uploaded', deal.id);
    expect(uploaded.data).toMatchObject({ documentId: d.documentId, transactionId: deal.id, documentType: 'purchase_contract', sizeBytes: file.length });
  });

  it('refuses an expired presigned PUT with 403', async () => {
    const r = await uploadUrl({ fileName: 'late.pdf', sizeBytes: 100 });
    const expired = await presignPut(r.body.data.key, 'application/pdf', 1);
    await new Promise((res) => setTimeout(res, 2100));
    const refused = await put(expired, pdfBytes());
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('Request has expired');
    expect(await headObject(r.body.data.key)).toBeUndefined();
    expect((await getDoc(r.body.data.documentId)).body.data.uploadState).toBe('awaiting_upload');
  });

  it('a non-PDF upload ends in a failed upload and a FAILED job (not_pdf); an empty one empty_file, an oversized one file_too_large', async () => {
    const text = Buffer.from('just some text, not a pdf');
    const r = await uploadUrl({ fileName: 'notes.pdf', sizeBytes: text.length });
    expect((await put(r.body.data.uploadUrl, text)).status).toBe(200);
    const doc = await processed(r.body.data.documentId);
    expect(doc).toMatchObject({ uploadState: 'failed', uploadError: { code: 'not_pdf' }, extractionState: 'failed' });
    const job = await waitFor(async () => {
      const j = (await getJob(doc.latestJobId)).body.data;
      return j.state === 'failed' ? j : undefined;
    });
    expect(job).toMatchObject({ state: 'failed', error: { code: 'not_pdf', message: expect.stringContaining('not a PDF') }, completedAt: expect.any(String), result: null });
    expect(s3.started.map((s) => s.jobId)).not.toContain(doc.latestJobId);
    const [done] = (await outboxEvents(org.orgId, 'extraction.completed')).filter((e) => e.data.jobId === doc.latestJobId);
    expect(done.data).toEqual({ jobId: doc.latestJobId, transactionId: null, documentId: doc.id, status: 'failed', confidence: 0, requiresReview: true });

    const empty = await uploadUrl({ fileName: 'empty.pdf', sizeBytes: 1 });
    expect((await put(empty.body.data.uploadUrl, Buffer.alloc(0))).status).toBe(200);
    const emptyDoc = await processed(empty.body.data.documentId);
    expect(emptyDoc.uploadError.code).toBe('empty_file');
    expect((await getJob(emptyDoc.latestJobId)).body.data.error.code).toBe('empty_file');

    // In AWS the signed Content-Length refuses a larger body; s3rver does not check it, so the handler's own check shows.
    const big = await uploadUrl({ fileName: 'big.pdf', sizeBytes: 1000 });
    const oversized = Buffer.concat([pdfBytes(), Buffer.alloc(MAX_DOCUMENT_BYTES)]);
    expect((await put(big.body.data.uploadUrl, oversized)).status).toBe(200);
    const bigDoc = await processed(big.body.data.documentId);
    expect(bigDoc).toMatchObject({ uploadState: 'failed', uploadError: { code: 'file_too_large' }, sizeBytes: oversized.length });
    expect((await getJob(bigDoc.latestJobId)).body.data).toMatchObject({ state: 'failed', error: { code: 'file_too_large' } });
  });

  it('a repeated notification changes nothing; a file without its document is deleted; other keys are ignored', async () => {
    const file = pdfBytes();
    const r = await uploadUrl({ fileName: 'twice.pdf', sizeBytes: file.length });
    await put(r.body.data.uploadUrl, file);
    const doc = await processed(r.body.data.documentId);
    const notification = (key: string): S3Event => ({ Records: [{ eventName: 'ObjectCreated:Put', s3: { bucket: { name: s3.bucket }, object: { key, size: 1 } } }] } as unknown as S3Event);
    const startsBefore = s3.started.length;
    const again = await documentUploaded(notification(r.body.data.key));
    expect(again.results).toEqual([{ outcome: 'duplicate', documentId: doc.id }]);
    expect(s3.started.length).toBe(startsBefore);
    expect((await getDoc(doc.id)).body.data).toMatchObject({ latestJobId: doc.latestJobId, updatedAt: doc.updatedAt });

    const orphanKey = `org/${org.orgId}/documents/${randomUUID()}/stray.pdf`;
    await putObject(orphanKey, file, 'application/pdf');
    await s3.idle();
    expect(await headObject(orphanKey)).toBeUndefined();
    expect((await documentUploaded(notification('ocr/x/y/blocks.json'))).results).toEqual([{ outcome: 'ignored', key: 'ocr/x/y/blocks.json' }]);
  });

  it('with extract: false the upload is recorded and no job starts', async () => {
    const file = pdfBytes();
    const r = await uploadUrl({ fileName: 'Earnest money receipt.pdf', sizeBytes: file.length, extract: false });
    expect(r.body.data.document.documentType).toBe('earnest_money_receipt');
    await put(r.body.data.uploadUrl, file);
    const doc = await processed(r.body.data.documentId);
    expect(doc).toMatchObject({ uploadState: 'uploaded', extractionState: 'none', latestJobId: null });
  });

  it('validates the request: PDF only, size required and at most 25 MB, a known document type, the org’s deal', async () => {
    const tooBig = await uploadUrl({ fileName: 'big.pdf', sizeBytes: MAX_DOCUMENT_BYTES + 1 });
    expect(tooBig.status).toBe(422);
    expect(tooBig.body.error.fields).toEqual({ sizeBytes: `must be at most ${MAX_DOCUMENT_BYTES}` });
    const bad = await uploadUrl({ fileName: 'a/b.docx', contentType: 'application/msword', documentType: 'recipe' });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['contentType', 'documentType', 'fileName', 'sizeBytes']);
    expect(bad.body.error.fields.contentType).toBe('must be application/pdf: only PDF documents are accepted');
    const foreignDeal = await createDeal(other, '1 Foreign St');
    expect((await uploadUrl({ fileName: 'x.pdf', sizeBytes: 10, transactionId: foreignDeal.id })).status).toBe(404);
  });
});

describe('POST /documents (base64)', () => {
  const post = (body: Record<string, unknown>, key = org.keys.draft) => t.call('POST', '/api/v1/documents', { key, body });

  it('stores the PDF and returns the document and its queued job; the upload notification starts it', async () => {
    const file = pdfBytes('inline');
    const r = await post({ fileName: 'contract.pdf', contentBase64: file.toString('base64') });
    expect(r.status).toBe(200);
    const { documentId, jobId } = r.body.data;
    expect(r.body.data.document).toMatchObject({ id: documentId, latestJobId: jobId, extractionState: 'queued' });
    expect((await getJob(jobId)).body.data).toMatchObject({ state: 'queued', documentId });
    await waitFor(async () => (s3.started.some((s) => s.jobId === jobId) ? true : undefined));
    const doc = (await getDoc(documentId)).body.data;
    expect(doc).toMatchObject({ uploadState: 'uploaded', sizeBytes: file.length, latestJobId: jobId });
    expect(s3.started.filter((s) => s.jobId === jobId)).toHaveLength(1);
  });

  it('422 on contentBase64 when empty, not base64, not a PDF, or over the limit — and stores nothing', async () => {
    const cases: [string, RegExp][] = [
      ['', /is empty/],
      ['not base64!', /must be base64/],
      [Buffer.from('hello world').toString('base64'), /not a PDF/],
      ['A'.repeat(5_000_004), /at most 5000000 characters.*upload-url/],
    ];
    const before = await documentCount(org.orgId);
    for (const [contentBase64, message] of cases) {
      const r = await post({ fileName: 'x.pdf', contentBase64 });
      expect(r.status, contentBase64.slice(0, 20)).toBe(422);
      expect(Object.keys(r.body.error.fields)).toEqual(['contentBase64']);
      expect(r.body.error.fields.contentBase64).toMatch(message);
    }
    expect(await documentCount(org.orgId)).toBe(before);
  });
});

describe('starting extractions, URLs and isolation', () => {
  let docId: string;
  let jobId: string;
  beforeAll(async () => {
    const r = await t.call('POST', '/api/v1/documents', { key: org.keys.actions, body: { fileName: 'deal.pdf', contentBase64: pdfBytes('deal').toString('base64') } });
    docId = r.body.data.documentId;
    jobId = r.body.data.jobId;
    await waitFor(async () => ((await getDoc(docId)).body.data.uploadState === 'uploaded' ? true : undefined));
  });

  it('422 on documentId while a job of the document is queued or running; a new job once it finished', async () => {
    const again = await t.call('POST', `/api/v1/documents/${docId}/extract`, { key: org.keys.actions });
    expect(again.status).toBe(422);
    expect(again.body.error.code).toBe('validation_error');
    expect(again.body.error.fields.documentId).toContain('queued or running');
    await markJobRunning(org.orgId, jobId, new Date());
    const running = await t.call('POST', '/api/v1/extractions', { key: org.keys.actions, body: { documentId: docId } });
    expect(running.status).toBe(422);
    expect(Object.keys(running.body.error.fields)).toEqual(['documentId']);
    expect((await getDoc(docId)).body.data.extractionState).toBe('running');
    await completeJob(org.orgId, jobId, extractionResult(), new Date());
    const doc = (await getDoc(docId)).body.data;
    expect(doc).toMatchObject({ extractionState: 'completed', documentType: 'purchase_contract', documentTypeSource: 'extraction' });

    const next = await t.call('POST', '/api/v1/extractions', { key: org.keys.actions, body: { documentId: docId } });
    expect(next.status).toBe(200);
    expect(next.body.data).toMatchObject({ state: 'queued', documentId: docId });
    expect(next.body.data.jobId).not.toBe(jobId);
    expect(s3.started.at(-1)).toMatchObject({ jobId: next.body.data.jobId, documentId: docId });
    const viaDoc = await t.call('POST', `/api/v1/documents/${docId}/extract`, { key: org.keys.actions });
    expect(viaDoc.status).toBe(422);
  });

  it('422 on documentId for a document whose upload has not arrived', async () => {
    const r = await uploadUrl({ fileName: 'pending.pdf', sizeBytes: 10 }, org.keys.actions);
    const start = await t.call('POST', '/api/v1/extractions', { key: org.keys.actions, body: { documentId: r.body.data.documentId } });
    expect(start.status).toBe(422);
    expect(start.body.error.fields).toEqual({ documentId: 'has not been uploaded yet; upload the file first' });
    expect(start.body.error.message).toContain('not been uploaded');
    expect((await t.call('GET', `/api/v1/documents/${r.body.data.documentId}/download-url`, { key: org.keys.read })).status).toBe(422);
  });

  it('download and source URLs fetch the stored PDF for 5 minutes', async () => {
    const dl = await t.call('GET', `/api/v1/documents/${docId}/download-url`, { key: org.keys.read });
    expect(dl.status).toBe(200);
    expect(dl.body.data).toMatchObject({ documentId: docId, fileName: 'deal.pdf', method: 'GET' });
    expect(dl.body.data.url).toContain('X-Amz-Expires=300');
    const file = await fetch(dl.body.data.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toContain('attachment; filename="deal.pdf"');
    expect(Buffer.from(await file.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');

    const src = await t.call('GET', `/api/v1/extractions/${jobId}/source-url`, { key: org.keys.read });
    expect(src.status).toBe(200);
    expect((await fetch(src.body.data.url)).status).toBe(200);
    expect(Date.parse(src.body.data.expiresAt) - Date.now()).toBeLessThanOrEqual(300_000);
  });

  it("another organization's document, job and URLs are 404, indistinguishable from unknown ids", async () => {
    const calls: [string, string, unknown?][] = [
      ['GET', `/api/v1/documents/${docId}`],
      ['GET', `/api/v1/documents/${docId}/download-url`],
      ['PATCH', `/api/v1/documents/${docId}`, { name: 'mine.pdf' }],
      ['DELETE', `/api/v1/documents/${docId}`],
      ['POST', `/api/v1/documents/${docId}/extract`],
      ['POST', '/api/v1/extractions', { documentId: docId }],
      ['GET', `/api/v1/extractions/${jobId}`],
      ['GET', `/api/v1/extractions/${jobId}/source-url`],
    ];
    for (const [method, path, body] of calls) {
      const theirs = await t.call(method, path, { key: other.keys.actions, body });
      const unknown = await t.call(method, path.replace(docId, randomUUID()).replace(jobId, randomUUID()), { key: other.keys.actions, body: body && JSON.parse(JSON.stringify(body).replace(docId, randomUUID())) });
      expect(theirs.status, `${method} ${path}`).toBe(404);
      expect(theirs.body.error.code).toBe('not_found');
      expect(unknown.body).toEqual(theirs.body);
    }
    expect((await getDoc(docId)).status).toBe(200);
  });
});
