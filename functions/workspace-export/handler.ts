/**
 * The target of export schedules: input `{orgId, exportId}` → the archive is built, stored and emailed
 * (shared/use-cases/workspace-export-build.ts). A transient failure throws, so the scheduler retries the build.
 */
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { clockNow } from '#ports/clock';
import { buildExport } from '#use-cases/workspace-export-build';
import { logger, metricSet, observedHandler } from '#observability/powertools';

export interface WorkspaceExportInput {
  orgId: string;
  exportId: string;
}

/** The worker's metrics (dimension `service` only): one per outcome, not an `outcome` dimension. */
export const EXPORT_METRICS = metricSet(['WorkspaceExportsCompleted', 'WorkspaceExportsSkipped', 'ExportBytes']);

/** Metrics: (Count) `WorkspaceExportsCompleted` or `WorkspaceExportsSkipped`; (Bytes) `ExportBytes` of a built archive. */
export const handler = observedHandler(async (input: WorkspaceExportInput): Promise<{ outcome: 'completed' | 'skipped' }> => {
  if (typeof input?.orgId !== 'string' || typeof input?.exportId !== 'string') throw new Error('workspace-export input needs orgId and exportId');
  logger.appendKeys({ orgId: input.orgId, exportId: input.exportId });
  const result = await buildExport(input.orgId, input.exportId, clockNow());
  logger.info('workspace export', { ...result });
  EXPORT_METRICS.add(result.outcome === 'completed' ? 'WorkspaceExportsCompleted' : 'WorkspaceExportsSkipped', MetricUnit.Count, 1);
  if (result.sizeBytes !== undefined) EXPORT_METRICS.add('ExportBytes', MetricUnit.Bytes, result.sizeBytes);
  return { outcome: result.outcome };
});
