/**
 * `ExtractFields` task: reads the job's blocks file, runs the extractor (shared/domain/extraction/extract.ts
 * `extractContract`, the same one for Textract and local OCR), then `completeJob`, which stores the result and
 * emits `extraction.completed` in one transaction. OCR warnings (Textract `PARTIAL_SUCCESS`) are added to the
 * result's warnings and make it require review. Counts `ExtractionJobsCompleted` (and `ExtractionsNeedingReview`)
 * and records `ExtractionConfidence` (Percent, 0–100). A completed job of a document on a deal with key dates
 * proposes the key dates it changes (shared/use-cases/proposals.ts; `ProposalsCreated`). The same handler runs in AWS and in the local runner.
 */
import { completeJob } from '#use-cases/finish-extraction';
import { proposeFromExtraction } from '#use-cases/proposals';
import { extractContract } from '#domain/extraction/extract';
import { clockNow } from '#ports/clock';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { metricSet } from '#observability/powertools';
import { readOcrResult } from './blocks.ts';
import { stepHandler, type ExtractFieldsInput, type ExtractFieldsOutput } from './step.ts';

/** The step's own metrics (dimension `service` only). */
export const EXTRACT_FIELDS_METRICS = metricSet(['ProposalsCreated', 'ExtractionJobsCompleted', 'ExtractionConfidence', 'ExtractionsNeedingReview']);

/**
 * Extracts the contract's fields from the job's blocks file and completes the job with them.
 * @returns a summary of the stored result (form type, pages, confidence 0–1, review flag)
 * @throws ExtractionError from the extractor (e.g. `no_text`)
 */
export async function extractFields(input: ExtractFieldsInput, now: Date = clockNow()): Promise<ExtractFieldsOutput> {
  const ocr = await readOcrResult(input.blocksKey);
  const result = extractContract(ocr);
  if (ocr.warnings?.length) {
    result.warnings.push(...ocr.warnings.map((w) => `OCR: ${w}`));
    result.requiresReview = true;
  }
  await completeJob(input.orgId, input.jobId, result, now);
  // A later document of a deal (an amendment) proposes its changed key dates. Runs on a retried step too
  // (the proposal's id is derived from the job, so it is made once).
  const proposal = await proposeFromExtraction(input.orgId, input.jobId, now);
  if (proposal) EXTRACT_FIELDS_METRICS.add('ProposalsCreated', MetricUnit.Count, 1);
  EXTRACT_FIELDS_METRICS.add('ExtractionJobsCompleted', MetricUnit.Count, 1);
  EXTRACT_FIELDS_METRICS.add('ExtractionConfidence', MetricUnit.Percent, Math.round(result.confidence * 1000) / 10);
  if (result.requiresReview) EXTRACT_FIELDS_METRICS.add('ExtractionsNeedingReview', MetricUnit.Count, 1);
  return { formType: result.formType, pageCount: result.pageCount, confidence: result.confidence, requiresReview: result.requiresReview };
}

/** Lambda handler (Step Functions task input `{orgId, jobId, documentId, blocksKey}`). */
export const handler = stepHandler('extractFields', (input: ExtractFieldsInput) => extractFields(input));
