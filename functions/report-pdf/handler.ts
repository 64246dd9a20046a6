/**
 * The report-pdf worker, invoked by the reports API group (`RequestResponse`, shared/ports/report-builder.ts):
 * input `ReportRequest` → the communication log rendered as PDF and stored in the documents bucket
 * (shared/use-cases/messaging/communication-log-pdf.ts) → output `BuiltReport` (key, file name, size, counts), which
 * the API presigns, or hands to report-zip. A failure throws: Lambda reports it to the API as a function error.
 */
import type { BuiltReport } from '#ports/report-builder';
import { storeCommunicationLogPdf } from '#use-cases/messaging/communication-log-pdf';
import { reportRequestOf } from '#use-cases/messaging/report-request';
import { logger, observedHandler } from '#observability/powertools';

/**
 * Logs the stored file (key, size, counts); no custom metrics (Lambda's own count its invocations, errors, durations).
 * @throws Error for an input that is not a `ReportRequest`, or from DynamoDB and S3
 */
export const handler = observedHandler(async (input: unknown): Promise<BuiltReport> => {
  const request = reportRequestOf(input);
  logger.appendKeys({ orgId: request.orgId, transactionId: request.transaction.id });
  const built = await storeCommunicationLogPdf(request);
  logger.info('report PDF stored', { ...built });
  return built;
});
