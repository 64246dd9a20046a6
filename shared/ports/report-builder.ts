/**
 * The report-builder port: has a stored report built by the report workers, so the reports API group carries
 * neither pdf-lib nor the ZIP writer and the S3 client's multipart upload (issue 24: API bundles ≤ 400 KB, workers
 * ≤ 600 KB). The API waits for them: the operation answers with the file's link, as the spec promises (README,
 * "Reports").
 * - `report-pdf` (functions/report-pdf): renders the communication log as PDF (pdf-lib) and stores it.
 * - `report-zip` (functions/report-zip): packs that PDF, the JSON log and the documents the messages carried into a
 *   ZIP streamed to S3. Two workers, because pdf-lib and the S3 client together are over a worker's 600 KB.
 * In AWS each is a Lambda `Invoke` (`RequestResponse`) of the worker's `live` alias (`REPORT_PDF_FUNCTION`,
 * `REPORT_ZIP_FUNCTION`), one attempt (a retry would build the report again past the API's 29 s). The request is
 * signed with the SDK's own SigV4 signer and sent with `fetch` (shared/ports/signed-request.ts), as the SDK's client
 * would send it: the Lambda client (its schemas and error classes, ~70 KB minified) would put the reports group over
 * its 400 KB for one call (`AWS_ENDPOINT_URL_LAMBDA` or `AWS_ENDPOINT_URL` overrides the endpoint, as for the SDK).
 * In the local runtime lib/local/report-builder.ts registers in-process invokers (`registerLocalReportWorkers`), used
 * instead.
 */
import { config } from '#ports/config';
import { jsonOf, sendSignedPost, serviceEndpoint } from '#ports/signed-request';

/** The communication log of one deal over `[from, to]` (ISO 8601 UTC, inclusive, null = open). */
export interface ReportRequest {
  report: 'communication-log';
  orgId: string;
  /** The deal, already found to be the organization's by the API. */
  transaction: { id: string; address: string; status: string };
  from: string | null;
  to: string | null;
  /** When the report was asked for (ISO 8601): its "generated" time and the date in its file name. */
  generatedAt: string;
}

/** The ZIP's request: the report and its PDF, stored by `report-pdf` (the ZIP is stored beside it). */
export interface ZipReportRequest extends ReportRequest {
  pdfKey: string;
}

/** A stored file: `key` in the documents bucket (under `reports/<orgId>/<transactionId>/<reportId>/`), its size and what it holds. */
export interface BuiltReport {
  key: string;
  fileName: string;
  sizeBytes: number;
  messageCount: number;
  documentCount: number;
}

/** The report workers, by function name (`functions/<name>/handler.ts`). */
export type ReportWorker = 'report-pdf' | 'report-zip';

/** The local runtime's stand-ins for the two invocations. */
export interface LocalReportWorkers {
  'report-pdf': (request: ReportRequest) => Promise<BuiltReport>;
  'report-zip': (request: ZipReportRequest) => Promise<BuiltReport>;
}

/** A worker failed: its error type and message, as Lambda reports an unhandled error (`X-Amz-Function-Error`). */
export class ReportBuildFailed extends Error {
  constructor(readonly errorType: string, message: string) {
    super(`report worker failed: ${errorType}: ${message}`);
    this.name = 'ReportBuildFailed';
  }
}

/** Lambda refused the invocation (HTTP 4xx/5xx): `name` is its error type (`ResourceNotFoundException`, `AccessDeniedException`, …). */
export class LambdaInvokeError extends Error {
  constructor(
    override readonly name: string,
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Longest wait for a worker's answer, ms: past the API's own 29 s the request has failed anyway. */
const INVOKE_TIMEOUT_MS = 30_000;

let local: LocalReportWorkers | undefined;

/** Registers the local workers (or, with `undefined`, unregisters them: Lambda is invoked again). */
export function registerLocalReportWorkers(workers: LocalReportWorkers | undefined): void {
  local = workers;
}

/**
 * Invokes `worker` with `request` and waits for its answer: `POST /2015-03-31/functions/<function>/invocations`
 * (Lambda API reference, Invoke), signed for the service `lambda` with the environment's credentials (Lambda's role).
 * @throws ReportBuildFailed on `X-Amz-Function-Error`; LambdaInvokeError on a refusal; the network error
 */
async function invoke(worker: ReportWorker, request: ReportRequest): Promise<BuiltReport> {
  const region = config.awsRegion ?? 'us-east-1';
  const fn = worker === 'report-pdf' ? config.reportPdfFunction : config.reportZipFunction;
  const res = await sendSignedPost({
    service: 'lambda',
    region,
    endpoint: serviceEndpoint('lambda', region, config.awsEndpointUrlLambda),
    path: `/2015-03-31/functions/${encodeURIComponent(fn)}/invocations`,
    headers: { 'content-type': 'application/json', 'x-amz-invocation-type': 'RequestResponse' },
    body: JSON.stringify(request),
    timeoutMs: INVOKE_TIMEOUT_MS,
  });
  const text = await res.text();
  const payload = jsonOf(text);
  if (!res.ok) {
    const type = res.headers.get('x-amzn-errortype')?.split(':')[0] ?? String(payload?.Type ?? payload?.__type ?? `Http${res.status}`);
    throw new LambdaInvokeError(type, res.status, `Lambda Invoke ${worker}: ${type} (${res.status}) ${String(payload?.message ?? payload?.Message ?? '')}`.trim());
  }
  const functionError = res.headers.get('x-amz-function-error');
  if (functionError) throw new ReportBuildFailed(String(payload?.errorType ?? functionError), String(payload?.errorMessage ?? 'no message'));
  return payload as unknown as BuiltReport;
}

/**
 * Renders the report as PDF and stores it.
 * @throws ReportBuildFailed when the worker threw or timed out; ConfigurationError without `REPORT_PDF_FUNCTION` (in
 *   AWS); LambdaInvokeError when Lambda refused the invocation (throttling, access, no such function)
 */
export function buildReportPdf(request: ReportRequest): Promise<BuiltReport> {
  return local ? local['report-pdf'](request) : invoke('report-pdf', request);
}

/**
 * Packs the stored PDF, the JSON log and the messages' documents into a ZIP stored beside the PDF.
 * @throws as `buildReportPdf` (`REPORT_ZIP_FUNCTION`)
 */
export function buildReportZip(request: ZipReportRequest): Promise<BuiltReport> {
  return local ? local['report-zip'](request) : invoke('report-zip', request);
}
