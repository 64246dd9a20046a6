/**
 * The report workers' inputs (shared/use-cases/messaging/report-request.ts) and where their files go
 * (shared/use-cases/messaging/communication-log-file.ts): a malformed request fails before anything is read or
 * written; report-zip only packs a PDF stored in a report folder of the request's own organization and deal.
 */
import { describe, expect, it } from 'vitest';
import { reportRequestOf, zipReportRequestOf } from '#use-cases/messaging/report-request';
import { newReportFolder, reportFileName, reportFolderOf } from '#use-cases/messaging/communication-log-file';
import type { ReportRequest } from '#ports/report-builder';

const request: ReportRequest = { report: 'communication-log', orgId: 'org-1', transaction: { id: 't-1', address: '88 Mockingbird Ct., Austin, TX 78704', status: 'active' }, from: null, to: '2026-11-27T23:59:59.999Z', generatedAt: '2026-11-27T08:00:00.000Z' };

describe('report worker inputs', () => {
  it('accepts a communication-log request, and a ZIP request with its PDF', () => {
    expect(reportRequestOf(request)).toEqual(request);
    const zip = { ...request, pdfKey: 'reports/org-1/t-1/11111111-2222-4333-8444-555555555555/x.pdf' };
    expect(zipReportRequestOf(zip)).toEqual(zip);
  });

  it.each([
    ['nothing', null],
    ['another report', { ...request, report: 'invoice' }],
    ['no organization', { ...request, orgId: '' }],
    ['no deal', { ...request, transaction: undefined }],
    ['a bound that is not text', { ...request, from: 20261127 }],
    ['no time asked', { ...request, generatedAt: undefined }],
  ])('refuses %s', (_what, input) => {
    expect(() => reportRequestOf(input)).toThrow(/ReportRequest/);
  });

  it('refuses a ZIP request without the stored PDF', () => {
    expect(() => zipReportRequestOf(request)).toThrow(/pdfKey/);
  });
});

describe('report files', () => {
  it('names the file by the address and the date asked, in a new folder of the deal per report', () => {
    expect(reportFileName(request, 'zip')).toBe('communication-log-88_Mockingbird_Ct_Austin_TX_78704-2026-11-27.zip');
    const a = newReportFolder(request);
    expect(a).toMatch(/^reports\/org-1\/t-1\/[0-9a-f-]{36}\/$/);
    expect(newReportFolder(request)).not.toBe(a);
    expect(reportFolderOf(request, `${a}${reportFileName(request, 'pdf')}`)).toBe(a);
  });

  it.each([
    ['another organization', 'reports/org-2/t-1/11111111-2222-4333-8444-555555555555/x.pdf'],
    ['another deal', 'reports/org-1/t-2/11111111-2222-4333-8444-555555555555/x.pdf'],
    ['a document', 'org/org-1/documents/11111111-2222-4333-8444-555555555555/x.pdf'],
    ['a path out of the folder', 'reports/org-1/t-1/../../org-2/t-1/11111111-2222-4333-8444-555555555555/x.pdf'],
    ['the deal folder itself', 'reports/org-1/t-1/x.pdf'],
  ])('refuses a PDF key of %s', (_what, key) => {
    expect(() => reportFolderOf(request, key)).toThrow(/not a report of this deal/);
  });
});
