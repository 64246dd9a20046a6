/**
 * What the two report workers share (functions/report-pdf, functions/report-zip): the log a request names, read
 * from the table, and where its files are stored in the documents bucket,
 * `reports/<orgId>/<transactionId>/<reportId>/communication-log-<address>-<date>.<pdf|zip>` (expired by a lifecycle
 * rule, lib/report-builder.ts). The reports API group asks for them through shared/ports/report-builder.ts and
 * answers with the download link (shared/use-cases/messaging/communication-log.ts).
 */
import { randomUUID } from 'node:crypto';
import { listCommunications } from '#db/communications';
import { safeFileName } from '#ports/blob-store';
import { REPORTS_PREFIX } from '#ports/object-prefixes';
import type { ReportRequest } from '#ports/report-builder';
import type { CommunicationLog } from '#use-cases/messaging/communication-log';

/** The file name of the report in `format`: `communication-log-<address>-<YYYY-MM-DD>.<format>`. */
export const reportFileName = (request: Pick<ReportRequest, 'transaction' | 'generatedAt'>, format: 'pdf' | 'zip'): string =>
  `communication-log-${safeFileName(request.transaction.address).replace(/\./g, '')}-${request.generatedAt.slice(0, 10)}.${format}`;

/** A new report's folder: `reports/<orgId>/<transactionId>/<reportId>/`. */
export const newReportFolder = (request: Pick<ReportRequest, 'orgId' | 'transaction'>): string => `${REPORTS_PREFIX}${request.orgId}/${request.transaction.id}/${randomUUID()}/`;

/**
 * The folder of a stored report's key, when it is one of `request`'s deal's (`reports/<orgId>/<transactionId>/<id>/`).
 * @throws Error for any other key (the request names a file of another organization or deal)
 */
export function reportFolderOf(request: Pick<ReportRequest, 'orgId' | 'transaction'>, key: string): string {
  const folder = key.slice(0, key.lastIndexOf('/') + 1);
  const own = `${REPORTS_PREFIX}${request.orgId}/${request.transaction.id}/`;
  if (!folder.startsWith(own) || !/^[0-9a-f-]{36}\/$/.test(folder.slice(own.length))) throw new Error(`not a report of this deal: ${key}`);
  return folder;
}

/** The deal's messages in the request's range, as the log the files show. @throws Error from DynamoDB */
export async function readCommunicationLog(request: ReportRequest): Promise<CommunicationLog> {
  const { orgId, transaction, from, to, generatedAt } = request;
  const messages = await listCommunications(orgId, transaction.id, { from: from ?? undefined, to: to ?? undefined });
  return { transaction, from, to, generatedAt, messages };
}
