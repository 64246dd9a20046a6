/**
 * Extraction jobs: `PK = ORG#<orgId>#JOB#<jobId>`, `SK = JOB`. States: queued → running → completed | failed
 * (a job may also fail straight from queued). Each transition also sets the document's `extractionState`
 * when the job is the document's latest; finishing (completed or failed) commits the caller's event
 * (`extraction.completed`, shared/use-cases/finish-extraction.ts) in the same `TransactWriteItems`, conditional on
 * the job not being finished yet, so a retried workflow step can never emit twice. Applying a completed job to a
 * deal sets `appliedTransactionId` once.
 */
import { randomUUID } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';
import { jobPk } from '#db/keys';
import { transactWrite, type TransactItem } from '#db/transact';
import { Conflict, NotFound } from '#domain/errors';
import { documentKeyOf, findDocument, type DocumentRecord } from '#db/documents';
import { typeFromExtraction } from '#domain/documents';
import type { Citation, ExtractionResult } from '#domain/extraction/types';

/** Job states: queued → running → completed | failed (failed also straight from queued). */
export type JobState = 'queued' | 'running' | 'completed' | 'failed';

/** An extraction job as stored and as the pipeline steps read it. */
export interface ExtractionJob {
  jobId: string;
  orgId: string;
  documentId: string;
  transactionId: string | null;
  state: JobState;
  /** Where the source PDF is (bucket and object key). */
  bucket: string;
  key: string;
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
  result: ExtractionResult | null;
  error: { code: string; message: string } | null;
  /** The deal the result was applied to (set once, by `POST /transactions`). */
  appliedTransactionId: string | null;
}

/** Key of a job item. */
export const jobKey = (orgId: string, jobId: string) => ({ PK: jobPk(orgId, jobId), SK: 'JOB' });

/** The job item. */
export const jobItem = (j: ExtractionJob) => ({ ...jobKey(j.orgId, j.jobId), entity: 'ExtractionJob', ...j });

/** A job from its item. */
export function toJob(item: Record<string, any>): ExtractionJob {
  return {
    jobId: item.jobId,
    orgId: item.orgId,
    documentId: item.documentId,
    transactionId: item.transactionId ?? null,
    state: item.state,
    bucket: item.bucket,
    key: item.key,
    createdAt: item.createdAt,
    startedAt: item.startedAt ?? null,
    completedAt: item.completedAt ?? null,
    result: item.result ?? null,
    error: item.error ?? null,
    appliedTransactionId: item.appliedTransactionId ?? null,
  };
}

/** True for a job that will not change state again. */
export const isFinished = (state: JobState) => state === 'completed' || state === 'failed';

/**
 * Creates a `queued` job for a document and makes it the document's latest job (`extractionState`
 * queued), in one transaction. A document that already has a queued or running job refuses a second one.
 * A document item that does not exist is not required (the job alone is written).
 * @throws Conflict when the document's latest job is still queued or running
 */
export async function createJob(orgId: string, input: { documentId: string; transactionId: string | null; bucket: string; key: string }, now: Date): Promise<ExtractionJob> {
  const job: ExtractionJob = {
    jobId: randomUUID(),
    orgId,
    documentId: input.documentId,
    transactionId: input.transactionId,
    state: 'queued',
    bucket: input.bucket,
    key: input.key,
    createdAt: now.toISOString(),
    startedAt: null,
    completedAt: null,
    result: null,
    error: null,
    appliedTransactionId: null,
  };
  const doc = await findDocument(orgId, input.documentId, true);
  const items: TransactItem[] = [{ Put: { TableName: tableName(), Item: jobItem(job), ConditionExpression: 'attribute_not_exists(PK)' } }];
  if (doc) {
    items.push({
      Update: {
        TableName: tableName(),
        Key: documentKeyOf(orgId, doc.id),
        UpdateExpression: 'SET latestJobId = :j, extractionState = :q, updatedAt = :now',
        ConditionExpression: 'attribute_exists(PK) AND NOT (extractionState IN (:q, :r))',
        ExpressionAttributeValues: { ':j': job.jobId, ':q': 'queued', ':r': 'running', ':now': job.createdAt },
      },
    });
  }
  await transactWrite(items, () => new Conflict(`An extraction of document ${input.documentId} is already queued or running (job ${doc?.latestJobId ?? 'unknown'}).`, {
    documentId: `has an extraction queued or running (job ${doc?.latestJobId ?? 'unknown'})`,
  }));
  return job;
}

/**
 * The write that creates a job already `failed` (a file refused on upload: `not_pdf`, `empty_file`,
 * `file_too_large`), for the caller's transaction, which also points the document at it (see
 * `markDocumentUploadFailed`).
 * @returns the job and the items
 */
export function failedJobPuts(
  orgId: string,
  input: { documentId: string; transactionId: string | null; bucket: string; key: string },
  error: { code: string; message: string },
  now: Date,
): { job: ExtractionJob; items: TransactItem[] } {
  const job: ExtractionJob = {
    jobId: randomUUID(),
    orgId,
    ...input,
    state: 'failed',
    createdAt: now.toISOString(),
    startedAt: null,
    completedAt: now.toISOString(),
    result: null,
    error: { code: error.code, message: error.message },
    appliedTransactionId: null,
  };
  return {
    job,
    items: [
      { Put: { TableName: tableName(), Item: jobItem(job), ConditionExpression: 'attribute_not_exists(PK)' } },
    ],
  };
}

/**
 * The job.
 * @throws NotFound when absent or another organization's
 */
export async function getJob(orgId: string, jobId: string): Promise<ExtractionJob> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: jobKey(orgId, jobId), ConsistentRead: true }));
  if (!out.Item) throw new NotFound('Extraction job');
  return toJob(out.Item);
}

/**
 * queued → running (sets `startedAt`; the document's `extractionState` follows). A job already running or
 * finished is left as it is (a retried step).
 * @returns true when this call moved the job
 * @throws NotFound when the job does not exist
 */
export async function markJobRunning(orgId: string, jobId: string, now: Date): Promise<boolean> {
  const job = await getJob(orgId, jobId);
  if (job.state !== 'queued') return false;
  const jobUpdate: TransactItem = {
    Update: {
      TableName: tableName(),
      Key: jobKey(orgId, jobId),
      UpdateExpression: 'SET #s = :running, startedAt = :now',
      ConditionExpression: '#s = :queued',
      ExpressionAttributeNames: { '#s': 'state' },
      ExpressionAttributeValues: { ':running': 'running', ':queued': 'queued', ':now': now.toISOString() },
    },
  };
  return finishWrite(orgId, job, [jobUpdate], { extractionState: 'running' }, now);
}

/**
 * The caller's writes committed with a job's finish (its event), given the job and the deal its document now belongs
 * to (the document's, else the job's; null for none).
 */
export type FinishItems = (job: ExtractionJob, transactionId: string | null) => TransactItem[];

/**
 * Completes the job with its result, with `finishItems` in one transaction; the document's `extractionState`
 * becomes completed, and a recognized TREC 20-18 reclassifies it as `purchase_contract` unless its type was
 * declared. No-op when the job is already completed or failed.
 * @returns true when this call completed the job
 * @throws NotFound when the job does not exist
 */
export async function commitJobCompleted(orgId: string, jobId: string, result: ExtractionResult, now: Date, finishItems: FinishItems): Promise<boolean> {
  const job = await getJob(orgId, jobId);
  if (isFinished(job.state)) return false;
  const stored = fitResult(result);
  const items: TransactItem[] = [
    {
      Update: {
        TableName: tableName(),
        Key: jobKey(orgId, jobId),
        UpdateExpression: 'SET #s = :completed, completedAt = :now, #r = :result, #e = :null',
        ConditionExpression: '#s IN (:queued, :running)',
        ExpressionAttributeNames: { '#s': 'state', '#r': 'result', '#e': 'error' },
        ExpressionAttributeValues: { ':completed': 'completed', ':now': now.toISOString(), ':result': stored, ':null': null, ':queued': 'queued', ':running': 'running' },
      },
    },
  ];
  return finishWrite(orgId, job, items, { extractionState: 'completed', documentType: typeFromExtraction(result.formType) }, now, finishItems);
}

/**
 * Fails the job with a stable error code (see `ExtractionErrorCode`), with `finishItems` in one transaction; the
 * document's `extractionState` becomes failed. No-op when the job is already completed or failed.
 * @returns true when this call failed the job
 * @throws NotFound when the job does not exist
 */
export async function commitJobFailed(orgId: string, jobId: string, error: { code: string; message: string }, now: Date, finishItems: FinishItems): Promise<boolean> {
  const job = await getJob(orgId, jobId);
  if (isFinished(job.state)) return false;
  const items: TransactItem[] = [
    {
      Update: {
        TableName: tableName(),
        Key: jobKey(orgId, jobId),
        UpdateExpression: 'SET #s = :failed, completedAt = :now, #e = :error, #r = :null',
        ConditionExpression: '#s IN (:queued, :running)',
        ExpressionAttributeNames: { '#s': 'state', '#r': 'result', '#e': 'error' },
        ExpressionAttributeValues: { ':failed': 'failed', ':now': now.toISOString(), ':error': { code: error.code, message: error.message }, ':null': null, ':queued': 'queued', ':running': 'running' },
      },
    },
  ];
  return finishWrite(orgId, job, items, { extractionState: 'failed' }, now, finishItems);
}

/**
 * The `Update` that records a job as applied to `transactionId`, for the apply transaction: it fails
 * when the job is not completed or was already applied, so of two concurrent applies one commits.
 */
export function jobAppliedUpdate(orgId: string, jobId: string, transactionId: string, now: Date): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: jobKey(orgId, jobId),
      UpdateExpression: 'SET appliedTransactionId = :t, appliedAt = :now',
      ConditionExpression: '#s = :completed AND (attribute_not_exists(appliedTransactionId) OR appliedTransactionId = :null)',
      ExpressionAttributeNames: { '#s': 'state' },
      ExpressionAttributeValues: { ':t': transactionId, ':now': now.toISOString(), ':completed': 'completed', ':null': null },
    },
  };
}

/** The public view of a job (`GET /extractions/{jobId}`). */
export function jobView(j: ExtractionJob) {
  const { orgId: _o, bucket: _b, key: _k, ...view } = j;
  return view;
}

class JobAlreadyMoved extends Error {}
class DocumentMoved extends Error {}

/**
 * Commits a job transition with the document's state (when the job is the document's latest) and, for a
 * finish, the caller's `finishItems`. A job whose condition fails was moved by someone else: no-op.
 * A document deleted or given a newer job in the meantime is left out (one retry without it).
 */
async function finishWrite(
  orgId: string,
  job: ExtractionJob,
  jobItems: TransactItem[],
  doc: { extractionState: DocumentRecord['extractionState']; documentType?: DocumentRecord['documentType'] },
  now: Date,
  finishItems?: FinishItems,
): Promise<boolean> {
  const current = await findDocument(orgId, job.documentId, true);
  const finishing = finishItems?.(job, current?.transactionId ?? job.transactionId) ?? [];
  const build = (withDoc: boolean): TransactItem[] => {
    const items = [...jobItems, ...finishing];
    if (withDoc) {
      const reclassify = doc.documentType && current!.documentTypeSource !== 'declared';
      items.push({
        Update: {
          TableName: tableName(),
          Key: documentKeyOf(orgId, job.documentId),
          UpdateExpression: `SET extractionState = :x, updatedAt = :now${reclassify ? ', documentType = :t, documentTypeSource = :ts' : ''}`,
          ConditionExpression: 'attribute_exists(PK) AND latestJobId = :j',
          ExpressionAttributeValues: { ':x': doc.extractionState, ':now': now.toISOString(), ':j': job.jobId, ...(reclassify ? { ':t': doc.documentType, ':ts': 'extraction' } : {}) },
        },
      });
    }
    return items;
  };
  const docIndex = jobItems.length + finishing.length;
  const attempt = async (withDoc: boolean) => {
    // A concurrent transaction on the same job (a racing step) cancels with TransactionConflict: try again,
    // and the job's condition then decides.
    for (let tries = 1; ; tries++) {
      try {
        return await transactWrite(build(withDoc), (index) => (index === docIndex ? new DocumentMoved() : new JobAlreadyMoved()));
      } catch (err) {
        const conflict = err instanceof TransactionCanceledException && (err.CancellationReasons ?? []).some((r) => r.Code === 'TransactionConflict');
        if (!conflict || tries >= 3) throw err;
        await new Promise((r) => setTimeout(r, 20 * tries));
      }
    }
  };
  try {
    await attempt(current?.latestJobId === job.jobId);
    return true;
  } catch (err) {
    if (err instanceof JobAlreadyMoved) return false;
    if (!(err instanceof DocumentMoved)) throw err;
  }
  try {
    await attempt(false);
    return true;
  } catch (err) {
    if (err instanceof JobAlreadyMoved) return false;
    throw err;
  }
}

/** DynamoDB's item limit is 400 KB; a result is far smaller, but citations are unbounded text. */
const MAX_RESULT_BYTES = 300_000;

/** The result as stored: when too large, citations are cut to one per field (with a warning). */
export function fitResult(result: ExtractionResult): ExtractionResult {
  if (Buffer.byteLength(JSON.stringify(result)) <= MAX_RESULT_BYTES) return result;
  const fields = Object.fromEntries(
    Object.entries(result.fields).map(([name, f]) => [name, { ...f, citations: (f.citations as Citation[]).slice(0, 1).map((c) => ({ ...c, text: c.text.slice(0, 500) })) }]),
  ) as unknown as ExtractionResult['fields'];
  return { ...result, fields, warnings: [...result.warnings, 'citations truncated to one per field (result too large to store)'] };
}
