/**
 * The communication log report (`GET /transactions/{id}/reports/communication-log`): every message of the deal in a
 * time range, as JSON (inline), PDF, or a ZIP of the PDF, the JSON and the documents the messages carried. A Lambda
 * response holds at most 6 MB, so the PDF and the ZIP are stored in the documents bucket under
 * `reports/<orgId>/<transactionId>/<reportId>/` and answered with a short-lived download URL (presigned GET).
 * The API answers when the file is stored, as before, but the file is built by the report workers
 * (shared/ports/report-builder.ts: report-pdf, then report-zip for a ZIP): pdf-lib, the ZIP writer and the S3
 * client's multipart upload stay out of the reports API group (issue 24: API bundles ≤ 400 KB).
 */
import { getTransactionHead, type Transaction } from '#db/transactions';
import { listCommunications, messageView, type Communication } from '#db/communications';
import { presignGet } from '#ports/blob-store';
import { buildReportPdf, buildReportZip, type BuiltReport } from '#ports/report-builder';
import type { Actor } from '#events/outbox';
import { InvalidInput } from '#domain/errors';

export const LOG_FORMATS = ['json', 'pdf', 'zip'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** Validity of a report's download URL, seconds. */
export const REPORT_URL_SECONDS = 900;
/** Largest JSON log answered inline (a Lambda response holds 6 MB). */
export const MAX_INLINE_JSON_BYTES = 5 * 1024 * 1024;

/** The messages of a deal in a range, and when the log was made. Times are ISO 8601 UTC. */
export interface CommunicationLog {
  transaction: Pick<Transaction, 'id' | 'address' | 'status'>;
  from: string | null;
  to: string | null;
  generatedAt: string;
  messages: Communication[];
}

/** The log as the JSON format shows it (messages as the API shows them). */
export const communicationLogJson = (log: CommunicationLog) => ({
  transaction: log.transaction,
  from: log.from,
  to: log.to,
  generatedAt: log.generatedAt,
  messageCount: log.messages.length,
  messages: log.messages.map(messageView),
});

/**
 * The format asked for: `json` (default), `pdf` or `zip`, case-insensitive.
 * @throws InvalidInput naming `format` for anything else
 */
export function logFormatOf(format: string | undefined): LogFormat {
  const f = (format ?? 'json').trim().toLowerCase();
  if (!(LOG_FORMATS as readonly string[]).includes(f)) throw new InvalidInput({ format: 'must be json, pdf or zip' });
  return f as LogFormat;
}

/** An ISO bound: a date alone means the start (`from`) or the end (`to`) of that UTC day. */
const bound = (value: string | undefined, end: boolean): string | null => {
  if (!value) return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return `${value}T${end ? '23:59:59.999' : '00:00:00.000'}Z`;
  return new Date(value).toISOString();
};

/** A stored report and how to download it. */
export interface StoredReport {
  format: Exclude<LogFormat, 'json'>;
  fileName: string;
  contentType: string;
  sizeBytes: number;
  url: string;
  method: 'GET';
  expiresAt: string;
  messageCount: number;
  documentCount: number;
  from: string | null;
  to: string | null;
  generatedAt: string;
}

/** The stored report's answer: its download link (presigned GET, `REPORT_URL_SECONDS`) and what it holds. */
async function stored(log: Omit<CommunicationLog, 'messages'>, format: StoredReport['format'], built: BuiltReport, now: Date): Promise<StoredReport> {
  const contentType = format === 'pdf' ? 'application/pdf' : 'application/zip';
  const url = await presignGet(built.key, REPORT_URL_SECONDS, built.fileName);
  const expiresAt = new Date(now.getTime() + REPORT_URL_SECONDS * 1000).toISOString();
  return { format, fileName: built.fileName, contentType, sizeBytes: built.sizeBytes, url, method: 'GET', expiresAt, messageCount: built.messageCount, documentCount: built.documentCount, from: log.from, to: log.to, generatedAt: log.generatedAt };
}

/**
 * The report in `format` over `[from, to]` (both optional and inclusive; a date alone covers its whole UTC day).
 * @returns `{format: 'json', ...log}` inline, or the stored PDF/ZIP's download URL
 * @throws NotFound for a deal that is absent or another organization's
 * @throws InvalidInput for an unknown format, `from` after `to`, or a JSON log over 5 MB (narrow the range or use zip)
 */
export async function communicationLogReport(actor: Actor, transactionId: string, query: { format?: string; from?: string; to?: string }, now: Date) {
  const deal = await getTransactionHead(actor.orgId, transactionId);
  const format = logFormatOf(query.format);
  const from = bound(query.from, false);
  const to = bound(query.to, true);
  if (from && to && from > to) throw new InvalidInput({ from: 'must not be after to' });
  const transaction = { id: deal.id, address: deal.address, status: deal.status };
  const generatedAt = now.toISOString();
  if (format === 'json') {
    const messages = await listCommunications(actor.orgId, deal.id, { from: from ?? undefined, to: to ?? undefined });
    const body = { format, ...communicationLogJson({ transaction, from, to, generatedAt, messages }) };
    if (Buffer.byteLength(JSON.stringify(body)) > MAX_INLINE_JSON_BYTES) throw new InvalidInput({ format: 'the JSON log of this range is over 5 MB; narrow from/to, or ask for zip (which carries the JSON as a file)' });
    return body;
  }
  // Built and stored by the report workers, which read the messages themselves (an invocation carries 6 MB at most):
  // the PDF, then for a ZIP the archive of that PDF, the JSON and the documents.
  const request = { report: 'communication-log' as const, orgId: actor.orgId, transaction, from, to, generatedAt };
  const pdf = await buildReportPdf(request);
  const built = format === 'pdf' ? pdf : await buildReportZip({ ...request, pdfKey: pdf.key });
  return stored({ transaction, from, to, generatedAt }, format, built, now);
}
