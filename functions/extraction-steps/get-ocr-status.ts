/**
 * `GetOcrStatus` task (AWS): the Textract job's state, read from its first result page
 * (shared/ports/ocr-textract.ts `getAnalysisPage`). A FAILED job throws `ExtractionError('ocr_failed')` there,
 * which ends the job `ocr_failed`. `PARTIAL_SUCCESS` (some pages could not be read) goes on to extraction with
 * Textract's warnings: the readable pages still give a proposal, flagged for review. Locally this task is
 * overridden (the local OCR has finished by then).
 */
import { getAnalysisPage, type TextractJobStatus } from '#ports/ocr-textract';
import { stepHandler, type GetOcrStatusInput, type GetOcrStatusOutput, type OcrJobStatus } from './step.ts';

const STATUS: Record<TextractJobStatus, OcrJobStatus> = {
  in_progress: 'IN_PROGRESS',
  succeeded: 'SUCCEEDED',
  partial_success: 'PARTIAL_SUCCESS',
};

/**
 * The OCR job's status.
 * @returns `{ status }` (`IN_PROGRESS` | `SUCCEEDED` | `PARTIAL_SUCCESS`) and Textract's warnings, if any
 * @throws ExtractionError `ocr_failed` when the Textract job failed or is unknown
 */
export async function getOcrStatus(input: GetOcrStatusInput): Promise<GetOcrStatusOutput> {
  const page = await getAnalysisPage(input.ocrJobId);
  return { status: STATUS[page.status], ...(page.warnings.length ? { statusMessage: page.warnings.join('; ') } : {}) };
}

/** Lambda handler (Step Functions task input `{ocrJobId}`). */
export const handler = stepHandler('getOcrStatus', getOcrStatus);
