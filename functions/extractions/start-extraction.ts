/** `POST /api/v1/extractions`: starts an extraction job for an uploaded document (`{documentId}`). */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { uuid } from '#api/params';
import { jobView } from '#db/extraction-jobs';
import { startDocumentExtraction } from '#use-cases/start-extraction';
import { jobResponse } from '#api/responses/documents';

export default defineOperation({
  operationId: 'startExtraction',
  method: 'POST',
  path: '/api/v1/extractions',
  access: 'draft',
  summary: 'Starts an extraction job from a completed upload (its documentId).',
  response: () => jobResponse(),
  designedHere: true,
  uses: ['extraction:start'],
  schemas: () => ({ body: z.object({ documentId: uuid() }) }),
  example: { body: { documentId: '0d3c8f4e-5b7a-4f0e-9a51-3c2b1d4e6f70' } },
  /** Starts a job for an uploaded document; 422 on `documentId` while one is queued or running. */
  handler: async ({ body }, { principal, now }) => ({
    body: { data: jobView(await startDocumentExtraction(principal.orgId, body.documentId, now)) },
  }),
});
