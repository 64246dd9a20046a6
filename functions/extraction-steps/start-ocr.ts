/**
 * `StartOcr` task (AWS): counts the uploaded PDF's pages (pdf-lib, shared/ports/pdf-pages.ts), then starts
 * Textract asynchronous document analysis (FORMS for the checkboxes, QUERIES for unrecognized forms) on it
 * (shared/ports/ocr-textract.ts `startAnalysis`), idempotent per job through `ClientRequestToken = jobId`, so a
 * retried start returns the same Textract job instead of paying for another. Textract reads the object with this
 * function's credentials, hence its `s3:GetObject` grant on uploaded documents. The file was already checked at
 * upload (size, `%PDF-`; functions/document-uploaded/handler.ts); what Textract rejects maps to `not_pdf`,
 * `corrupt_pdf` or `file_too_large` in the adapter. The local runner overrides this task
 * (lib/local/step-functions.ts), so this module never imports the local OCR adapter.
 */
import { getObjectBytes } from '#ports/blob-store';
import { assertPageCount, DEFAULT_MAX_PAGES } from '#ports/ocr';
import { startAnalysis } from '#ports/ocr-textract';
import { pdfPageCount } from '#ports/pdf-pages';
import { stepHandler, type StartOcrInput, type StartOcrOutput } from './step.ts';

/** Textract's `ClientRequestToken` and `JobTag`: 1–64 characters `[A-Za-z0-9_-]` (job ids are UUIDs). */
const TOKEN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Starts OCR of `s3://bucket/key`, after counting its pages: Textract bills per page, so a file over
 * `DEFAULT_MAX_PAGES` (or one it could not read) fails here for nothing instead of after a paid analysis.
 * @returns `{ ocrJobId }` (Textract's JobId)
 * @throws ExtractionError `too_many_pages` | `corrupt_pdf` before Textract is called;
 *   `not_pdf` | `corrupt_pdf` | `file_too_large` when Textract rejects the document; Textract's throttling
 *   errors unchanged (the state machine retries them); other SDK errors (access, a missing object) unchanged,
 *   ending the job `internal_error`
 */
export async function startOcr(input: StartOcrInput): Promise<StartOcrOutput> {
  // A presigned GET (shared/ports/s3-object-requests.ts): no S3 client in this bundle.
  assertPageCount(await pdfPageCount(await getObjectBytes(input.key, undefined, input.bucket)), DEFAULT_MAX_PAGES);
  const token = TOKEN.test(input.jobId) ? input.jobId : undefined;
  const ocrJobId = await startAnalysis(input.bucket, input.key, { clientRequestToken: token, jobTag: token });
  return { ocrJobId };
}

/** Lambda handler (Step Functions task input `{orgId, jobId, documentId, bucket, key}`). */
export const handler = stepHandler('startOcr', startOcr);
