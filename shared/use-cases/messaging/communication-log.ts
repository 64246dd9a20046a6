/**
 * The communication log report (`GET /transactions/{id}/reports/communication-log`): every message of the deal in a
 * time range, as JSON (inline), PDF, or a ZIP of the PDF, the JSON and the documents the messages carried. A Lambda
 * response holds at most 6 MB, so the PDF and the ZIP are stored in the documents bucket under
 * `reports/<orgId>/<transactionId>/<reportId>/` and answered with a short-lived download URL (presigned GET); the ZIP is streamed there.
 * The PDF and ZIP renderers are imported statically: in a single-file esbuild bundle an `import()` only defers their
 * evaluation, and the lazily initialised modules it wraps (with the DynamoDB and S3 clients they reach) are no longer
 * tree-shaken, which made the reports bundle 93 KB larger (1,026 against 933 KB) for no measurable init saving.
 */
import { randomUUID } from 'node:crypto';
import { getTransactionHead, type Transaction } from '#db/transactions';
import { listCommunications, messageView, type Communication } from '#db/communications';
import { presignGet, putObject, safeFileName } from '#ports/blob-store';
import type { Actor } from '#events/outbox';
import { InvalidInput } from '#domain/errors';
import { renderCommunicationLogPdf } from '#use-cases/messaging/communication-log-pdf';
import { storeCommunicationLogZip } from '#use-cases/messaging/communication-log-zip';

export const LOG_FORMATS = ['json', 'pdf', 'zip'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** Validity of a report's download URL, seconds. */
export const REPORT_URL_SECONDS = 900;
/** Largest JSON log answered inline (a Lambda response holds 6 MB). */
export const MAX_INLINE_JSON_BYTES = 5 * 1024 * 1024;
/** Key prefix of stored reports in the documents bucket (expired by a lifecycle rule). */
export const REPORTS_PREFIX = 'reports/';

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

/** Where a report is stored: `reports/<orgId>/<transactionId>/<reportId>/<fileName>`. */
function reportLocation(actor: Actor, log: CommunicationLog, format: StoredReport['format']) {
  const fileName = `communication-log-${safeFileName(log.transaction.address).replace(/\./g, '')}-${log.generatedAt.slice(0, 10)}.${format}`;
  return { fileName, key: `${REPORTS_PREFIX}${actor.orgId}/${log.transaction.id}/${randomUUID()}/${fileName}` };
}

async function stored(log: CommunicationLog, format: StoredReport['format'], at: { fileName: string; key: string }, sizeBytes: number, documentCount: number, now: Date): Promise<StoredReport> {
  const contentType = format === 'pdf' ? 'application/pdf' : 'application/zip';
  const url = await presignGet(at.key, REPORT_URL_SECONDS, at.fileName);
  const expiresAt = new Date(now.getTime() + REPORT_URL_SECONDS * 1000).toISOString();
  return { format, fileName: at.fileName, contentType, sizeBytes, url, method: 'GET', expiresAt, messageCount: log.messages.length, documentCount, from: log.from, to: log.to, generatedAt: log.generatedAt };
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
  const messages = await listCommunications(actor.orgId, deal.id, { from: from ?? undefined, to: to ?? undefined });
  const log: CommunicationLog = { transaction: { id: deal.id, address: deal.address, status: deal.status }, from, to, generatedAt: now.toISOString(), messages };
  if (format === 'json') {
    const body = { format, ...communicationLogJson(log) };
    if (Buffer.byteLength(JSON.stringify(body)) > MAX_INLINE_JSON_BYTES) throw new InvalidInput({ format: 'the JSON log of this range is over 5 MB; narrow from/to, or ask for zip (which carries the JSON as a file)' });
    return body;
  }
  const pdf = await renderCommunicationLogPdf(log);
  const at = reportLocation(actor, log, format);
  if (format === 'pdf') {
    await putObject(at.key, pdf, 'application/pdf');
    return stored(log, 'pdf', at, pdf.length, 0, now);
  }
  // Streamed into a multipart upload, the documents read from S3 as streams.
  const zip = await storeCommunicationLogZip(actor.orgId, log, pdf, at.key);
  return stored(log, 'zip', at, zip.sizeBytes, zip.documentCount, now);
}
