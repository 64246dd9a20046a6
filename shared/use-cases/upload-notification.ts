/**
 * An S3 `ObjectCreated` notification of the documents bucket → the document's upload is checked and recorded, once
 * per document (the worker is functions/document-uploaded/handler.ts; locally s3rver's event, lib/local/s3-local.ts):
 * - keys that are not `org/<orgId>/documents/<documentId>/<file>` (e.g. the pipeline's `ocr/` files) are ignored;
 * - a file without its document item (deleted before the upload arrived) is deleted;
 * - empty, larger than 25 MB (size from `HeadObject`) or not a PDF (the first 5 bytes, one ranged GET, are not
 *   `%PDF-`) → the document's upload `failed` and, when an extraction was requested, a job created already
 *   `failed` with `empty_file`, `file_too_large` or `not_pdf` and its `extraction.completed`, all in one
 *   transaction (a job queued earlier by `POST /documents` is failed instead): never a job left queued or running;
 * - otherwise the document is `uploaded` (with `document.uploaded` when it belongs to a deal) and, when an
 *   extraction was requested, its job (the one `POST /documents` created, or a new one) is started.
 * Repeated notifications change nothing (the upload state moves from `awaiting_upload` once).
 *
 * Metrics (Count, one per record): `UploadsAccepted`, `UploadsRefused` (empty, too large, not a PDF),
 * `UploadNotificationsSkipped` (ignored keys, orphans, repeats), `UploadErrors` (unexpected).
 */
import type { S3EventRecord } from 'aws-lambda';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { findDocument, markDocumentUploadFailed, type DocumentRecord } from '#db/documents';
import { createJob, getJob, type ExtractionJob } from '#db/extraction-jobs';
import { deleteObject, documentsBucket, getObjectBytes, headObject, parseDocumentKey } from '#ports/blob-store';
import { clockNow } from '#ports/clock';
import { FILE_PROBLEM_MESSAGES, MAX_DOCUMENT_BYTES, PDF_MAGIC_LENGTH, pdfProblem } from '#domain/documents';
import { Conflict } from '#domain/errors';
import { launchJob } from '#use-cases/start-extraction';
import { failedJobCreateItems, failJob } from '#use-cases/finish-extraction';
import { recordUpload } from '#use-cases/documents';
import { logger, metricSet, type MetricNameOf } from '#observability/powertools';

/** What processing one notification record did. */
export type UploadOutcome =
  | { outcome: 'ignored'; key: string }
  | { outcome: 'orphan_deleted'; key: string }
  | { outcome: 'duplicate'; documentId: string; jobId?: string }
  | { outcome: 'uploaded'; documentId: string; jobId: string | null }
  | { outcome: 'failed'; documentId: string; code: string; jobId: string | null };

/** The upload trigger's metrics (Count, one per record; dimension `service` only). */
export const UPLOAD_METRICS = metricSet(['UploadsAccepted', 'UploadsRefused', 'UploadNotificationsSkipped', 'UploadErrors']);

/** The metric an outcome counts under. */
const OUTCOME_METRIC: Readonly<Record<UploadOutcome['outcome'], MetricNameOf<typeof UPLOAD_METRICS>>> = {
  uploaded: 'UploadsAccepted',
  failed: 'UploadsRefused',
  ignored: 'UploadNotificationsSkipped',
  orphan_deleted: 'UploadNotificationsSkipped',
  duplicate: 'UploadNotificationsSkipped',
};

/** The job to run for the document: its queued latest job (created by `POST /documents`), else a new one. */
async function jobFor(doc: DocumentRecord, now: Date): Promise<ExtractionJob | undefined> {
  if (doc.latestJobId) {
    const job = await getJob(doc.orgId, doc.latestJobId);
    if (job.state === 'queued') return job;
    return undefined;
  }
  if (!doc.extractOnUpload) return undefined;
  try {
    return await createJob(doc.orgId, { documentId: doc.id, transactionId: doc.transactionId, bucket: documentsBucket(), key: doc.s3Key }, now);
  } catch (err) {
    if (err instanceof Conflict) return undefined; // another delivery of this notification created it
    throw err;
  }
}

/**
 * Processes one notification record (no metrics; `recordUploadNotification` counts).
 * @param now the processing time (tests pin it)
 */
export async function processUploadRecord(record: S3EventRecord, now: Date = clockNow()): Promise<UploadOutcome> {
  const key = record.s3.object.key;
  const parsed = parseDocumentKey(key);
  if (!parsed || (record.s3.bucket?.name && record.s3.bucket.name !== documentsBucket())) return { outcome: 'ignored', key };
  const rawKey = `org/${parsed.orgId}/documents/${parsed.documentId}/${parsed.fileName}`;
  const doc = await findDocument(parsed.orgId, parsed.documentId, true);
  if (!doc) {
    await deleteObject(rawKey);
    logger.info('file without a document deleted', { orgId: parsed.orgId, documentId: parsed.documentId, key: rawKey });
    return { outcome: 'orphan_deleted', key: rawKey };
  }
  if (doc.s3Key !== rawKey) return { outcome: 'ignored', key: rawKey };
  if (doc.uploadState !== 'awaiting_upload') {
    // A repeated notification. Recover a requested extraction that never got its job (a crash in between).
    if (doc.uploadState === 'uploaded' && doc.extractOnUpload && doc.extractionState === 'none') {
      const job = await jobFor(doc, now);
      if (job) await launchJob(job, now).catch(() => undefined);
      return { outcome: 'duplicate', documentId: doc.id, jobId: job?.jobId };
    }
    return { outcome: 'duplicate', documentId: doc.id };
  }

  const head = await headObject(rawKey);
  if (!head) return { outcome: 'ignored', key: rawKey }; // deleted since
  const first = head.size > 0 && head.size <= MAX_DOCUMENT_BYTES ? await getObjectBytes(rawKey, { start: 0, end: PDF_MAGIC_LENGTH - 1 }) : new Uint8Array();
  const problem = pdfProblem(head.size, first);
  if (problem) {
    const error = { code: problem, message: FILE_PROBLEM_MESSAGES[problem] };
    // A requested extraction gets a job created already failed, in the same transaction as the refusal.
    const failedJob = doc.extractOnUpload && !doc.latestJobId
      ? failedJobCreateItems(doc.orgId, { documentId: doc.id, transactionId: doc.transactionId, bucket: documentsBucket(), key: doc.s3Key }, error, now)
      : undefined;
    const failed = await markDocumentUploadFailed(doc, error, head.size, now, failedJob && { jobId: failedJob.job.jobId, items: failedJob.items });
    if (!failed) return { outcome: 'duplicate', documentId: doc.id };
    // A job queued before the upload (POST /documents) is failed too.
    if (doc.latestJobId) await failJob(doc.orgId, doc.latestJobId, error, now);
    const jobId = failedJob?.job.jobId ?? doc.latestJobId;
    logger.info('upload refused', { orgId: doc.orgId, documentId: doc.id, code: problem, jobId });
    return { outcome: 'failed', documentId: doc.id, code: problem, jobId };
  }

  const uploaded = await recordUpload(doc, head.size, now);
  if (!uploaded) return { outcome: 'duplicate', documentId: doc.id };
  const job = await jobFor(uploaded, now);
  if (job) {
    // launchJob fails the job when the workflow cannot start; the upload itself is recorded either way.
    await launchJob(job, now).catch(() => undefined);
  }
  return { outcome: 'uploaded', documentId: doc.id, jobId: job?.jobId ?? null };
}

/**
 * Processes one notification record and counts its outcome.
 * @throws what processing threw (counted as `UploadErrors` and logged), so the worker has Lambda retry the event
 */
export async function recordUploadNotification(record: S3EventRecord, now: Date = clockNow()): Promise<UploadOutcome> {
  try {
    const result = await processUploadRecord(record, now);
    UPLOAD_METRICS.add(OUTCOME_METRIC[result.outcome], MetricUnit.Count, 1);
    return result;
  } catch (err) {
    UPLOAD_METRICS.add('UploadErrors', MetricUnit.Count, 1);
    logger.error('upload notification failed', { key: record.s3?.object?.key, error: err });
    throw err;
  }
}
