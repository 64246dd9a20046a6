/**
 * Extraction-job repository on DynamoDB Local: create (one queued or running job per document), running,
 * complete and fail — each finish in one transaction with `extraction.completed` and the document's state,
 * never emitted twice (a retried step, or two racing steps), and tenant-scoped reads.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { DeleteCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { useTestTable } from '../support/test-table.ts';
import { createOrganization } from '#db/orgs';
import { db, tableName } from '#db/client';
import { createDocument, getDocument, type DocumentRecord } from '#db/documents';
import { createJob, fitResult, getJob, markJobRunning } from '#db/extraction-jobs';
import { completeJob, failJob } from '#use-cases/finish-extraction';
import { Conflict, NotFound } from '#domain/errors';
import type { EventEnvelope } from '#events/outbox';
import { extractionResult } from '../e2e/documents-fixtures.ts';

const NOW = new Date('2030-03-01T12:00:00.000Z');
const later = (s: number) => new Date(NOW.getTime() + s * 1000);
let orgId: string;

beforeAll(async () => {
  await useTestTable();
  orgId = (await createOrganization({ name: 'Jobs Realty', ownerEmail: 'owner@jobs.test' })).orgId;
});

async function events(jobId: string): Promise<EventEnvelope<'extraction.completed'>[]> {
  const out = await db().send(new ScanCommand({ TableName: tableName(), FilterExpression: 'entity = :e', ExpressionAttributeValues: { ':e': 'OutboxEvent' }, ConsistentRead: true }));
  return (out.Items ?? []).map((i) => i.envelope as EventEnvelope<'extraction.completed'>).filter((e) => e.eventType === 'extraction.completed' && e.data.jobId === jobId);
}

async function newDocument(overrides: Partial<DocumentRecord> = {}): Promise<DocumentRecord> {
  const id = randomUUID();
  return createDocument({
    id,
    orgId,
    transactionId: null,
    name: 'contract.pdf',
    documentType: 'other',
    documentTypeSource: 'filename',
    contentType: 'application/pdf',
    sizeBytes: 1000,
    s3Key: `org/${orgId}/documents/${id}/contract.pdf`,
    uploadState: 'uploaded',
    uploadError: null,
    extractionState: 'none',
    extractOnUpload: true,
    latestJobId: null,
    order: 0,
    createdAt: NOW.toISOString(),
    updatedAt: NOW.toISOString(),
    uploadedAt: NOW.toISOString(),
    createdBy: null,
    ...overrides,
  });
}
const jobFor = (doc: DocumentRecord) => createJob(orgId, { documentId: doc.id, transactionId: doc.transactionId, bucket: 'docs', key: doc.s3Key }, NOW);

describe('createJob', () => {
  it('creates a queued job, makes it the document’s latest, and refuses a second while it is queued or running', async () => {
    const doc = await newDocument();
    const job = await jobFor(doc);
    expect(job).toEqual({
      jobId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      orgId,
      documentId: doc.id,
      transactionId: null,
      state: 'queued',
      bucket: 'docs',
      key: doc.s3Key,
      createdAt: NOW.toISOString(),
      startedAt: null,
      completedAt: null,
      result: null,
      error: null,
      appliedTransactionId: null,
    });
    expect(await getJob(orgId, job.jobId)).toEqual(job);
    expect(await getDocument(orgId, doc.id)).toMatchObject({ latestJobId: job.jobId, extractionState: 'queued' });
    await expect(jobFor(doc)).rejects.toBeInstanceOf(Conflict);
    await markJobRunning(orgId, job.jobId, later(1));
    await expect(jobFor(doc)).rejects.toBeInstanceOf(Conflict);
    await failJob(orgId, job.jobId, { code: 'ocr_failed', message: 'x' }, later(2));
    const second = await jobFor(doc);
    expect((await getDocument(orgId, doc.id)).latestJobId).toBe(second.jobId);
  });

  it('works without a document item (the job alone)', async () => {
    const job = await createJob(orgId, { documentId: randomUUID(), transactionId: null, bucket: 'docs', key: 'k' }, NOW);
    expect(await completeJob(orgId, job.jobId, extractionResult(), later(1))).toBe(true);
    expect((await getJob(orgId, job.jobId)).state).toBe('completed');
  });

  it('another organization’s job is not found', async () => {
    const job = await createJob(orgId, { documentId: randomUUID(), transactionId: null, bucket: 'docs', key: 'k' }, NOW);
    await expect(getJob(randomUUID(), job.jobId)).rejects.toBeInstanceOf(NotFound);
    await expect(markJobRunning(randomUUID(), job.jobId, NOW)).rejects.toBeInstanceOf(NotFound);
  });
});

describe('markJobRunning, completeJob, failJob', () => {
  it('queued → running → completed: result stored, document completed and reclassified, one event', async () => {
    const doc = await newDocument({ name: 'scan.pdf' });
    const job = await jobFor(doc);
    expect(await markJobRunning(orgId, job.jobId, later(1))).toBe(true);
    expect(await markJobRunning(orgId, job.jobId, later(2))).toBe(false);
    expect(await getJob(orgId, job.jobId)).toMatchObject({ state: 'running', startedAt: later(1).toISOString() });
    expect((await getDocument(orgId, doc.id)).extractionState).toBe('running');

    const result = extractionResult();
    expect(await completeJob(orgId, job.jobId, result, later(30))).toBe(true);
    expect(await getJob(orgId, job.jobId)).toMatchObject({ state: 'completed', completedAt: later(30).toISOString(), result, error: null });
    expect(await getDocument(orgId, doc.id)).toMatchObject({ extractionState: 'completed', documentType: 'purchase_contract', documentTypeSource: 'extraction' });
    const [event, ...more] = await events(job.jobId);
    expect(more).toEqual([]);
    expect(event).toMatchObject({ timestamp: later(30).toISOString(), organizationId: orgId, userId: null });
    expect(event.data).toEqual({ jobId: job.jobId, transactionId: null, documentId: doc.id, status: 'completed', confidence: 0.91, requiresReview: false });

    // A retried step, or a late failure, changes nothing and emits nothing.
    expect(await completeJob(orgId, job.jobId, { ...result, confidence: 0.1 }, later(40))).toBe(false);
    expect(await failJob(orgId, job.jobId, { code: 'internal_error', message: 'late' }, later(41))).toBe(false);
    expect(await markJobRunning(orgId, job.jobId, later(42))).toBe(false);
    expect((await getJob(orgId, job.jobId)).result!.confidence).toBe(0.91);
    expect(await events(job.jobId)).toHaveLength(1);
  });

  it('a declared document type is kept when the extraction recognizes a contract', async () => {
    const doc = await newDocument({ documentType: 'financing_addendum', documentTypeSource: 'declared' });
    const job = await jobFor(doc);
    await completeJob(orgId, job.jobId, extractionResult(), later(5));
    expect(await getDocument(orgId, doc.id)).toMatchObject({ extractionState: 'completed', documentType: 'financing_addendum', documentTypeSource: 'declared' });
  });

  it('failJob from queued: error recorded, event with confidence 0 and requiresReview true', async () => {
    const doc = await newDocument();
    const job = await jobFor(doc);
    expect(await failJob(orgId, job.jobId, { code: 'encrypted_pdf', message: 'The PDF is password-protected.' }, later(3))).toBe(true);
    expect(await getJob(orgId, job.jobId)).toMatchObject({ state: 'failed', completedAt: later(3).toISOString(), error: { code: 'encrypted_pdf', message: 'The PDF is password-protected.' }, result: null });
    expect((await getDocument(orgId, doc.id)).extractionState).toBe('failed');
    expect((await events(job.jobId)).map((e) => e.data)).toEqual([{ jobId: job.jobId, transactionId: null, documentId: doc.id, status: 'failed', confidence: 0, requiresReview: true }]);
    expect(await completeJob(orgId, job.jobId, extractionResult(), later(4))).toBe(false);
  });

  it('two racing finishes of one job: exactly one wins and one event is written', async () => {
    const doc = await newDocument();
    const job = await jobFor(doc);
    await markJobRunning(orgId, job.jobId, later(1));
    const outcomes = await Promise.all([
      completeJob(orgId, job.jobId, extractionResult(), later(10)),
      failJob(orgId, job.jobId, { code: 'internal_error', message: 'timeout' }, later(10)),
      completeJob(orgId, job.jobId, extractionResult(), later(10)),
    ]);
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect(await events(job.jobId)).toHaveLength(1);
  });

  it('an older job finishing does not overwrite the state of the document’s newer job', async () => {
    const doc = await newDocument();
    const old = await createJob(orgId, { documentId: doc.id, transactionId: null, bucket: 'docs', key: doc.s3Key }, NOW);
    await failJob(orgId, old.jobId, { code: 'ocr_failed', message: 'x' }, later(1));
    const newer = await jobFor(doc);
    // Simulate a straggler: the old job is put back to running, then completes.
    await db().send(new UpdateCommand({ TableName: tableName(), Key: { PK: `ORG#${orgId}#JOB#${old.jobId}`, SK: 'JOB' }, UpdateExpression: 'SET #s = :r', ExpressionAttributeNames: { '#s': 'state' }, ExpressionAttributeValues: { ':r': 'running' } }));
    expect(await completeJob(orgId, old.jobId, extractionResult(), later(5))).toBe(true);
    expect(await getDocument(orgId, doc.id)).toMatchObject({ latestJobId: newer.jobId, extractionState: 'queued' });
  });

  it('a document deleted while its job ran: the job still finishes', async () => {
    const doc = await newDocument();
    const job = await jobFor(doc);
    await db().send(new DeleteCommand({ TableName: tableName(), Key: { PK: `ORG#${orgId}#DOC#${doc.id}`, SK: 'DOC' } }));
    expect(await completeJob(orgId, job.jobId, extractionResult(), later(5))).toBe(true);
    expect(await events(job.jobId)).toHaveLength(1);
  });
});

describe('fitResult', () => {
  it('keeps a normal result as it is and trims citations of one too large to store', () => {
    const result = extractionResult();
    expect(fitResult(result)).toBe(result);
    const huge = { ...result, fields: { ...result.fields, legalDescription: { value: 'x', confidence: 0.5, warnings: [], citations: Array.from({ length: 500 }, (_, i) => ({ page: i + 1, text: 'y'.repeat(1000), boundingBox: { left: 0, top: 0, width: 1, height: 1 } })) } } };
    const fitted = fitResult(huge);
    expect(fitted.fields.legalDescription.citations).toHaveLength(1);
    expect(fitted.warnings.at(-1)).toMatch(/citations truncated/);
    expect(Buffer.byteLength(JSON.stringify(fitted))).toBeLessThan(300_000);
  });
});
