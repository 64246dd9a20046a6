/** `GET /api/v1/extractions/{jobId}/source-url`: a presigned GET URL of the job's source PDF, valid 5 minutes. */
import { defineOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { getJob } from '#db/extraction-jobs';
import { findDocument } from '#db/documents';
import { headObject, presignGet } from '#ports/blob-store';
import { NotFound } from '#domain/errors';
import { sourceUrlResponse } from '#api/responses/documents';

/** Validity of a source URL, seconds. */
export const SOURCE_URL_SECONDS = 300;

export default defineOperation({
  operationId: 'getExtractionSourceUrl',
  method: 'GET',
  path: '/api/v1/extractions/{jobId}/source-url',
  access: 'read',
  summary: 'Returns a short-lived URL of the source PDF.',
  response: () => sourceUrlResponse(),
  designedHere: true,
  uses: ['documents:read'],
  schemas: () => ({ path: uuidPath('jobId') }),
  /** A 5-minute GET URL of the source PDF (404 when the job or its file is gone). */
  handler: async ({ path }, { principal }) => {
    const job = await getJob(principal.orgId, path.jobId);
    if (!(await headObject(job.key))) throw new NotFound('Source document');
    const doc = await findDocument(principal.orgId, job.documentId);
    const issued = Date.now();
    const url = await presignGet(job.key, SOURCE_URL_SECONDS, doc?.name);
    return {
      body: {
        data: {
          jobId: job.jobId,
          documentId: job.documentId,
          url,
          method: 'GET',
          expiresAt: new Date(issued + SOURCE_URL_SECONDS * 1000).toISOString(),
        },
      },
    };
  },
});
