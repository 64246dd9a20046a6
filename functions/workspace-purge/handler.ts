/**
 * The target of purge schedules (EventBridge Scheduler in AWS, the local scheduler's poller locally): input
 * `{orgId, deletionId}` → the workspace is purged (shared/use-cases/workspace-purge.ts). A transient failure
 * throws, so the scheduler retries; a retry resumes where the last run stopped.
 */
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { clockNow } from '#ports/clock';
import { purgeWorkspace, type PurgeOutcome } from '#use-cases/workspace-purge';
import { logger, metricSet, observedHandler, type MetricNameOf } from '#observability/powertools';

export interface WorkspacePurgeInput {
  orgId: string;
  deletionId: string;
}

/** The worker's metrics (Count; dimension `service` only): one per outcome, not an `outcome` dimension. */
export const PURGE_METRICS = metricSet(['WorkspacesPurged', 'WorkspacePurgesSkipped', 'WorkspacePurgesGone', 'PurgedItems', 'PurgedObjects']);

/** The metric each outcome counts under. */
const OUTCOME_METRIC: Readonly<Record<PurgeOutcome['outcome'], MetricNameOf<typeof PURGE_METRICS>>> = {
  purged: 'WorkspacesPurged',
  skipped: 'WorkspacePurgesSkipped',
  gone: 'WorkspacePurgesGone',
};

/** Metrics (Count): `WorkspacesPurged`, `WorkspacePurgesSkipped` or `WorkspacePurgesGone`; `PurgedItems`, `PurgedObjects`. */
export const handler = observedHandler(async (input: WorkspacePurgeInput): Promise<PurgeOutcome> => {
  if (typeof input?.orgId !== 'string' || typeof input?.deletionId !== 'string') throw new Error('workspace-purge input needs orgId and deletionId');
  logger.appendKeys({ orgId: input.orgId, deletionId: input.deletionId });
  const result = await purgeWorkspace(input.orgId, input.deletionId, clockNow());
  logger.info('workspace purge', { ...result });
  PURGE_METRICS.add(OUTCOME_METRIC[result.outcome], MetricUnit.Count, 1);
  PURGE_METRICS.add('PurgedItems', MetricUnit.Count, result.items);
  PURGE_METRICS.add('PurgedObjects', MetricUnit.Count, result.objects);
  return result;
});
