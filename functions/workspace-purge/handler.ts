/**
 * The target of purge schedules (EventBridge Scheduler in AWS, the local scheduler's poller locally): input
 * `{orgId, deletionId}` → the workspace is purged (shared/use-cases/workspace-purge.ts). A transient failure
 * throws, so the scheduler retries; a retry resumes where the last run stopped.
 */
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { clockNow } from '#ports/clock';
import { purgeWorkspace, type PurgeOutcome } from '#use-cases/workspace-purge';
import { logger, metrics, observedHandler } from '#observability/powertools';

export interface WorkspacePurgeInput {
  orgId: string;
  deletionId: string;
}

/** Metrics (Count): `WorkspacePurges` by `outcome` (purged, skipped, gone); `PurgedItems`, `PurgedObjects`. */
export const handler = observedHandler(async (input: WorkspacePurgeInput): Promise<PurgeOutcome> => {
  if (typeof input?.orgId !== 'string' || typeof input?.deletionId !== 'string') throw new Error('workspace-purge input needs orgId and deletionId');
  logger.appendKeys({ orgId: input.orgId, deletionId: input.deletionId });
  const result = await purgeWorkspace(input.orgId, input.deletionId, clockNow());
  logger.info('workspace purge', { ...result });
  metrics.addDimensions({ outcome: result.outcome });
  metrics.addMetric('WorkspacePurges', MetricUnit.Count, 1);
  metrics.addMetric('PurgedItems', MetricUnit.Count, result.items);
  metrics.addMetric('PurgedObjects', MetricUnit.Count, result.objects);
  return result;
});
