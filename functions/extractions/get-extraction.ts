/**
 * `GET /api/v1/extractions/{jobId}`: the job's state (queued, running, completed, failed), its result once
 * completed (fields with confidence, citations and warnings; key dates), its error once failed, the
 * document and deal it belongs to, its timestamps, and the deal it was applied to.
 */
import { defineOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { getJob, jobView } from '#db/extraction-jobs';
import { jobResponse } from '#api/responses/documents';

export default defineOperation({
  operationId: 'getExtraction',
  method: 'GET',
  path: '/api/v1/extractions/{jobId}',
  access: 'read',
  summary: 'Job state and, once completed, results with confidence, citations and warnings.',
  response: () => jobResponse(),
  designedHere: true,
  schemas: () => ({ path: uuidPath('jobId') }),
  /** The job (404 for another organization's). */
  handler: async ({ path }, { principal }) => ({
    body: { data: jobView(await getJob(principal.orgId, path.jobId)) },
  }),
});
