/**
 * An extraction job finishing, completed or failed, with its `extraction.completed` (spec "Events": jobId, status,
 * confidence) in the same transaction as the job's state, so a retried workflow step never emits twice. The event is
 * the system's (no user).
 */
import { commitJobCompleted, commitJobFailed, failedJobPuts, type ExtractionJob, type FinishItems } from '#db/extraction-jobs';
import type { TransactItem } from '#db/transact';
import { outboxPut } from '#db/outbox';
import type { ExtractionResult } from '#domain/extraction/types';

/** How a job finished, as `extraction.completed` reports it (`confidence` 0–1). */
interface Finish {
  status: 'completed' | 'failed';
  confidence: number;
  requiresReview: boolean;
}

/** A failed job has no confidence and always needs review. */
const FAILED: Finish = { status: 'failed', confidence: 0, requiresReview: true };

/** The `extraction.completed` of a job that finished as `f`, reported on deal `transactionId`. */
const completedEvent =
  (f: Finish, now: Date): FinishItems =>
  (job, transactionId) => [outboxPut({ orgId: job.orgId, userId: null }, 'extraction.completed', { jobId: job.jobId, transactionId, documentId: job.documentId, ...f }, now)];

/**
 * Completes the job with its result (see shared/db/extraction-jobs.ts `commitJobCompleted`) and emits
 * `extraction.completed` with the result's confidence and requiresReview. No-op when the job already finished.
 * @returns true when this call completed the job
 * @throws NotFound when the job does not exist
 */
export async function completeJob(orgId: string, jobId: string, result: ExtractionResult, now: Date): Promise<boolean> {
  return commitJobCompleted(orgId, jobId, result, now, completedEvent({ status: 'completed', confidence: result.confidence, requiresReview: result.requiresReview }, now));
}

/**
 * Fails the job with a stable error code (see `ExtractionErrorCode`) and emits `extraction.completed` (status failed,
 * confidence 0, requiresReview true). No-op when the job already finished.
 * @returns true when this call failed the job
 * @throws NotFound when the job does not exist
 */
export async function failJob(orgId: string, jobId: string, error: { code: string; message: string }, now: Date): Promise<boolean> {
  return commitJobFailed(orgId, jobId, error, now, completedEvent(FAILED, now));
}

/**
 * The writes that create a job already failed (a file refused on upload) with its `extraction.completed`, for the
 * caller's transaction (see `failedJobPuts`).
 */
export function failedJobCreateItems(
  orgId: string,
  input: { documentId: string; transactionId: string | null; bucket: string; key: string },
  error: { code: string; message: string },
  now: Date,
): { job: ExtractionJob; items: TransactItem[] } {
  const { job, items } = failedJobPuts(orgId, input, error, now);
  return { job, items: [...items, ...completedEvent(FAILED, now)(job, job.transactionId)] };
}
