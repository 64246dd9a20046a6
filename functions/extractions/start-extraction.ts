/** `POST /api/v1/extractions`: starts an extraction job for an uploaded document (`{documentId}`). */
import type { OperationHandler } from '#http/context';
import { jobView } from '#db/extraction-jobs';
import { startDocumentExtraction } from './start-job.ts';

/** Starts a job for an uploaded document; 409 while one is queued or running. */
export const startExtraction: OperationHandler = async ({ body }, { principal, now }) => ({
  body: { data: jobView(await startDocumentExtraction(principal.orgId, body.documentId, now)) },
});
