/**
 * `MarkFailed` task: ends the job `failed` (shared/use-cases/finish-extraction.ts `failJob`, which also emits
 * `extraction.completed`) with the code the state error carries: a job error code passes through, anything else
 * (Lambda/States errors, unexpected exceptions) becomes `internal_error` with a generic message, the details
 * going to the log. Counts `ExtractionJobsFailed`. The same handler runs in AWS and in the local runner.
 */
import { failJob } from '#use-cases/finish-extraction';
import { clockNow } from '#ports/clock';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logger, metricSet, metrics } from '#observability/powertools';
import { jobErrorOf, stepHandler, type MarkFailedInput, type MarkFailedOutput } from './step.ts';

/** The step's own metric (Count; dimension `service` only; the job error code is the EMF property `errorCode`). */
export const MARK_FAILED_METRICS = metricSet(['ExtractionJobsFailed']);

/**
 * Fails the job with the state error's code.
 * @returns the code and message recorded (the `Failed` state reports them as the execution's error and cause)
 */
export async function markFailed(input: MarkFailedInput, now: Date = clockNow()): Promise<MarkFailedOutput> {
  const failure = jobErrorOf(input.error);
  if (failure.code === 'internal_error') {
    logger.error('extraction failed', { orgId: input.orgId, jobId: input.jobId, stateError: input.error?.Error, cause: input.error?.Cause });
  }
  await failJob(input.orgId, input.jobId, failure, now);
  MARK_FAILED_METRICS.add('ExtractionJobsFailed', MetricUnit.Count, 1);
  metrics.addMetadata('errorCode', failure.code);
  return failure;
}

/** Lambda handler (Step Functions task input `{orgId, jobId, error: {Error, Cause}}`). */
export const handler = stepHandler('markFailed', (input: MarkFailedInput) => markFailed(input));
