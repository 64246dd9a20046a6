/**
 * S3 key prefixes that the handlers and the infrastructure (lib/) share: the bucket notifications, lifecycle rules
 * and IAM grants are scoped to them. This module imports nothing, so lib/ can import it without pulling a handler's
 * dependencies (postal-mime, the AWS SDK clients) into synthesis.
 */

/** Received emails in the inbound-mail bucket: `inbound/<SES message id>` (the SES receipt rule's S3 action). */
export const INBOUND_PREFIX = 'inbound/';

/** OCR blocks files in the documents bucket: `ocr/<orgId>/<jobId>/blocks.json` (functions/extraction-steps/blocks.ts). */
export const OCR_PREFIX = 'ocr/';

/**
 * Stored reports in the documents bucket: `reports/<orgId>/<transactionId>/<reportId>/<fileName>`
 * (shared/use-cases/messaging/communication-log-file.ts), expired by a lifecycle rule (lib/report-builder.ts).
 */
export const REPORTS_PREFIX = 'reports/';
