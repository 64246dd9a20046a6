/**
 * Starting an extraction job, shared by `POST /documents/{documentId}/extract`, `POST /extractions`,
 * `POST /documents` and the S3 upload notification (functions/document-uploaded): the job is created
 * `queued`, then the workflow is started. A job whose workflow cannot be started is failed at once
 * (`internal_error`), never left queued.
 */
import { createJob, type ExtractionJob } from '#db/extraction-jobs';
import { failJob } from '#use-cases/finish-extraction';
import { getDocument } from '#db/documents';
import { documentsBucket } from '#ports/blob-store';
import { startExtractionWorkflow } from '#ports/workflow';
import { Conflict, Unavailable } from '#domain/errors';
import { logger } from '#observability/powertools';

/**
 * Starts the workflow of a queued job; on failure fails the job (`internal_error`) and rethrows.
 * @throws the workflow port's error (Step Functions throttling, access, configuration)
 */
export async function launchJob(job: ExtractionJob, now: Date): Promise<void> {
  try {
    await startExtractionWorkflow({ orgId: job.orgId, jobId: job.jobId, documentId: job.documentId, bucket: job.bucket, key: job.key });
  } catch (err) {
    logger.error('extraction workflow not started', { orgId: job.orgId, jobId: job.jobId, error: err });
    await failJob(job.orgId, job.jobId, { code: 'internal_error', message: 'The extraction could not be started; start it again.' }, now);
    throw err;
  }
}

/**
 * A new job for a stored document, started.
 * @returns the job (state `queued` as created; the workflow moves it on)
 * @throws NotFound for a document that is absent or another organization's
 * @throws Conflict when the document's upload has not arrived or failed, or a job for it is queued or running
 * @throws Unavailable (503 `service_unavailable`) when the workflow could not be started (the job is then failed)
 */
export async function startDocumentExtraction(orgId: string, documentId: string, now: Date): Promise<ExtractionJob> {
  const doc = await getDocument(orgId, documentId);
  if (doc.uploadState === 'awaiting_upload') throw new Conflict(`Document ${documentId} has not been uploaded yet; upload the file first.`, { documentId: 'has not been uploaded yet; upload the file first' });
  if (doc.uploadState === 'failed') {
    const why = `its upload was refused (${doc.uploadError?.code ?? 'failed'}); upload the file again as a new document`;
    throw new Conflict(`The upload of document ${documentId} was refused (${doc.uploadError?.code ?? 'failed'}); upload the file again as a new document.`, { documentId: why });
  }
  const job = await createJob(orgId, { documentId, transactionId: doc.transactionId, bucket: documentsBucket(), key: doc.s3Key }, now);
  try {
    await launchJob(job, now);
  } catch {
    throw new Unavailable('The extraction could not be started; retry later.');
  }
  return job;
}
