/**
 * The report workers' input check (functions/report-pdf, functions/report-zip): they are invoked by the reports API
 * group only, with a `ReportRequest` (shared/ports/report-builder.ts), but a malformed payload (a hand-made test
 * invocation, a version mismatch during a deployment) must fail clearly rather than write a file under a wrong key.
 */
import type { ReportRequest, ZipReportRequest } from '#ports/report-builder';

const text = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const bound = (v: unknown): boolean => v === null || text(v);

/** @throws Error naming what is wrong when `input` is not a communication-log `ReportRequest` */
export function reportRequestOf(input: unknown): ReportRequest {
  const r = input as Partial<ReportRequest> | null;
  if (r?.report !== 'communication-log' || !text(r.orgId) || !text(r.transaction?.id) || typeof r.transaction.address !== 'string' || !text(r.generatedAt) || !bound(r.from) || !bound(r.to)) {
    throw new Error('report worker input must be a communication-log ReportRequest (report, orgId, transaction, from, to, generatedAt)');
  }
  return r as ReportRequest;
}

/** @throws Error when `input` is not a `ReportRequest` with the stored PDF's `pdfKey` */
export function zipReportRequestOf(input: unknown): ZipReportRequest {
  const r = reportRequestOf(input) as Partial<ZipReportRequest>;
  if (!text(r.pdfKey)) throw new Error('report-zip input needs pdfKey (the PDF report-pdf stored)');
  return r as ZipReportRequest;
}
