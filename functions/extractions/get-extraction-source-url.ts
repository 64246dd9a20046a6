/** `GET /api/v1/extractions/{jobId}/source-url`: a presigned GET URL of the job's source PDF, valid 5 minutes. */
import type { OperationHandler } from '#http/context';
import { getJob } from '#db/extraction-jobs';
import { findDocument } from '#db/documents';
import { headObject, presignGet } from '#ports/blob-store';
import { NotFoundError } from '#http/errors';

/** Validity of a source URL, seconds. */
export const SOURCE_URL_SECONDS = 300;

/** A 5-minute GET URL of the source PDF (404 when the job or its file is gone). */
export const getExtractionSourceUrl: OperationHandler = async ({ path }, { principal }) => {
  const job = await getJob(principal.orgId, path.jobId);
  if (!(await headObject(job.key))) throw new NotFoundError('Source document');
  const doc = await findDocument(principal.orgId, job.documentId);
  const issued = Date.now();
  const url = await presignGet(job.key, SOURCE_URL_SECONDS, doc?.name);
  return {
    body: { data: { jobId: job.jobId, documentId: job.documentId, url, method: 'GET', expiresAt: new Date(issued + SOURCE_URL_SECONDS * 1000).toISOString() } },
  };
};
