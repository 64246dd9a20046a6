/**
 * `ExtractFields` task: reads the job's OCR blocks file and hands it to shared/use-cases/extract-fields.ts
 * (extractor, `completeJob`, key-date proposals, metrics). The same handler runs in AWS and in the local runner.
 */
import { extractFields } from '#use-cases/extract-fields';
import { clockNow } from '#ports/clock';
import { readOcrResult } from './blocks.ts';
import { stepHandler, type ExtractFieldsInput, type ExtractFieldsOutput } from './step.ts';

/** Lambda handler (Step Functions task input `{orgId, jobId, documentId, blocksKey}`). */
export const handler = stepHandler('extractFields', async (input: ExtractFieldsInput): Promise<ExtractFieldsOutput> =>
  extractFields(input.orgId, input.jobId, await readOcrResult(input.blocksKey), clockNow()),
);
