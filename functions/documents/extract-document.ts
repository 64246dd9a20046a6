/** `POST /api/v1/documents/{documentId}/extract`: starts a new extraction job for a stored document. */
import { defineOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { jobView } from '#db/extraction-jobs';
import { startDocumentExtraction } from '#use-cases/start-extraction';
import { jobResponse } from '#api/responses/documents';

export default defineOperation({
  operationId: 'extractDocument',
  method: 'POST',
  path: '/api/v1/documents/{documentId}/extract',
  access: 'draft',
  summary: 'Starts an extraction job for a document already stored.',
  response: () => jobResponse(),
  designedHere: true,
  uses: ['extraction:start'],
  schemas: () => ({ path: uuidPath('documentId') }),
  /** A new job (422 on `documentId` when the upload has not arrived or failed, or a job is queued or running). */
  handler: async ({ path }, { principal, now }) => ({
    body: { data: jobView(await startDocumentExtraction(principal.orgId, path.documentId, now)) },
  }),
});
