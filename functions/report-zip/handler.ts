/**
 * The report-zip worker, invoked by the reports API group (`RequestResponse`, shared/ports/report-builder.ts) after
 * report-pdf: input `ZipReportRequest` → the PDF, the JSON log and the documents the messages carried, streamed as a
 * ZIP into the documents bucket beside the PDF (shared/use-cases/messaging/communication-log-zip.ts) → output
 * `BuiltReport`, which the API presigns. A failure throws (a partial upload is aborted first).
 */
import type { BuiltReport } from '#ports/report-builder';
import { storeCommunicationLogZipReport } from '#use-cases/messaging/communication-log-zip';
import { zipReportRequestOf } from '#use-cases/messaging/report-request';
import { logger, observedHandler } from '#observability/powertools';

/**
 * Logs the stored file (key, size, counts); no custom metrics (Lambda's own count its invocations, errors, durations).
 * @throws Error for an input that is not a `ZipReportRequest` (or names another deal's PDF), or from DynamoDB and S3
 */
export const handler = observedHandler(async (input: unknown): Promise<BuiltReport> => {
  const request = zipReportRequestOf(input);
  logger.appendKeys({ orgId: request.orgId, transactionId: request.transaction.id });
  const built = await storeCommunicationLogZipReport(request);
  logger.info('report ZIP stored', { ...built });
  return built;
});
