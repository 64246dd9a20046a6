/**
 * `MarkRunning` task: the extraction job goes `running` (shared/db/extraction-jobs.ts `markJobRunning`). The same
 * handler runs in AWS and in the local runner. Counts `ExtractionJobsStarted`.
 */
import { markJobRunning } from '#db/extraction-jobs';
import { clockNow } from '#ports/clock';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { metricSet } from '#observability/powertools';
import { stepHandler, type JobRef } from './step.ts';

/** The step's own metric (Count; dimension `service` only). */
export const MARK_RUNNING_METRICS = metricSet(['ExtractionJobsStarted']);

/** Marks the job running. @returns `{}` (the state discards it: `ResultPath: null`) */
export async function markRunning(input: JobRef, now: Date = clockNow()): Promise<Record<string, never>> {
  await markJobRunning(input.orgId, input.jobId, now);
  MARK_RUNNING_METRICS.add('ExtractionJobsStarted', MetricUnit.Count, 1);
  return {};
}

/** Lambda handler (Step Functions task input `{orgId, jobId}`). */
export const handler = stepHandler('markRunning', (input: JobRef) => markRunning(input));
