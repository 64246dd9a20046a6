/**
 * `GET /api/v1/extractions/{jobId}`: the job's state (queued, running, completed, failed), its result once
 * completed (fields with confidence, citations and warnings; key dates), its error once failed, the
 * document and deal it belongs to, its timestamps, and the deal it was applied to.
 */
import type { OperationHandler } from '#http/context';
import { getJob, jobView } from '#db/extraction-jobs';

/** The job (404 for another organization's). */
export const getExtraction: OperationHandler = async ({ path }, { principal }) => ({
  body: { data: jobView(await getJob(principal.orgId, path.jobId)) },
});
