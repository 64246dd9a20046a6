/**
 * The extraction's `ExtractFields` step (the task handler is functions/extraction-steps/extract-fields.ts, which
 * reads the job's OCR blocks file): runs the extractor (shared/domain/extraction/extract.ts `extractContract`, the
 * same one for Textract and local OCR), then `completeJob` (shared/use-cases/finish-extraction.ts), which stores the
 * result and emits `extraction.completed` in one transaction. OCR warnings (Textract `PARTIAL_SUCCESS`) are added to
 * the result's warnings and make it require review. A completed job of a document on a deal with key dates proposes
 * the key dates it changes (shared/use-cases/proposals.ts).
 *
 * Metrics: (Count) `ExtractionJobsCompleted`, `ExtractionsNeedingReview`, `ProposalsCreated`; (Percent, 0–100)
 * `ExtractionConfidence`.
 */
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { OcrResult } from '#domain/extraction/types';
import { extractContract } from '#domain/extraction/extract';
import { completeJob } from '#use-cases/finish-extraction';
import { proposeFromExtraction } from '#use-cases/proposals';
import { metricSet } from '#observability/powertools';

/** The step's own metrics (dimension `service` only, `extraction-extractFields`). */
export const EXTRACT_FIELDS_METRICS = metricSet(['ProposalsCreated', 'ExtractionJobsCompleted', 'ExtractionConfidence', 'ExtractionsNeedingReview']);

/** A summary of the stored result (the result itself is stored with the job). */
export interface ExtractedSummary {
  formType: string;
  pageCount: number;
  /** 0–1. */
  confidence: number;
  requiresReview: boolean;
}

/**
 * Extracts the contract's fields from the job's OCR result and completes the job with them.
 * @param ocr the OCR result as stored, with its OCR warnings (e.g. Textract's `PAGES_FAILED on pages 3`)
 * @throws ExtractionError from the extractor (e.g. `no_text`); NotFound when the job does not exist
 */
export async function extractFields(orgId: string, jobId: string, ocr: OcrResult & { warnings?: string[] }, now: Date): Promise<ExtractedSummary> {
  const result = extractContract(ocr);
  if (ocr.warnings?.length) {
    result.warnings.push(...ocr.warnings.map((w) => `OCR: ${w}`));
    result.requiresReview = true;
  }
  await completeJob(orgId, jobId, result, now);
  // A later document of a deal (an amendment) proposes its changed key dates. Runs on a retried step too
  // (the proposal's id is derived from the job, so it is made once).
  const proposal = await proposeFromExtraction(orgId, jobId, now);
  if (proposal) EXTRACT_FIELDS_METRICS.add('ProposalsCreated', MetricUnit.Count, 1);
  EXTRACT_FIELDS_METRICS.add('ExtractionJobsCompleted', MetricUnit.Count, 1);
  EXTRACT_FIELDS_METRICS.add('ExtractionConfidence', MetricUnit.Percent, Math.round(result.confidence * 1000) / 10);
  if (result.requiresReview) EXTRACT_FIELDS_METRICS.add('ExtractionsNeedingReview', MetricUnit.Count, 1);
  return { formType: result.formType, pageCount: result.pageCount, confidence: result.confidence, requiresReview: result.requiresReview };
}
