/** `POST /api/v1/documents/{documentId}/extract`: starts a new extraction job for a stored document. */
import type { OperationHandler } from '#http/context';
import { jobView } from '#db/extraction-jobs';
import { startDocumentExtraction } from '#functions/extractions/start-job';

/** A new job (409 when the upload has not arrived or failed, or a job is queued or running). */
export const extractDocument: OperationHandler = async ({ path }, { principal, now }) => ({
  body: { data: jobView(await startDocumentExtraction(principal.orgId, path.documentId, now)) },
});
