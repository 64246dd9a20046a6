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

/**
 * The top-level prefixes under which each organization has a folder of its own (`<root><orgId>/`): documents and
 * anything else under `org/`, extraction OCR blocks files (`ocr/`), workspace export archives (`exports/`, a prefix
 * of their own so a lifecycle rule expires them and the upload notification on `org/` never sees them) and stored
 * reports (`reports/`). The workspace purge deletes everything under the organization's folder of each, and its IAM
 * grant names exactly these (lib/workspace-lifecycle.ts).
 */
export const ORG_OBJECT_ROOTS = ['org/', OCR_PREFIX, 'exports/', REPORTS_PREFIX] as const;
