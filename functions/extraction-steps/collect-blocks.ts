/**
 * `CollectBlocks` task (AWS): every result page of the finished Textract job (shared/ports/ocr-textract.ts
 * `collectAll` follows NextToken), stored as one `OcrResult` JSON at `ocr/<orgId>/<jobId>/blocks.json`; only the
 * key goes back into the state (payloads are limited to 256 KB). Locally this task is overridden: the local
 * `StartOcr` already wrote the same file.
 */
import { DEFAULT_MAX_PAGES } from '#ports/ocr';
import { collectAll } from '#ports/ocr-textract';
import { blocksKeyOf, writeOcrResult } from './blocks.ts';
import { stepHandler, type CollectBlocksInput, type CollectBlocksOutput } from './step.ts';

/**
 * Collects every block of the finished Textract job into the job's blocks file.
 * @returns the blocks file key, page count and block count
 * @throws ExtractionError `ocr_failed` | `too_many_pages` (more than `DEFAULT_MAX_PAGES` pages)
 */
export async function collectBlocks(input: CollectBlocksInput): Promise<CollectBlocksOutput> {
  const ocr = await collectAll(input.ocrJobId, { maxPages: DEFAULT_MAX_PAGES });
  const blocksKey = blocksKeyOf(input.orgId, input.jobId);
  await writeOcrResult(blocksKey, ocr);
  return { blocksKey, pageCount: ocr.pageCount, blockCount: ocr.blocks.length };
}

/** Lambda handler (Step Functions task input `{orgId, jobId, ocrJobId}`). */
export const handler = stepHandler('collectBlocks', collectBlocks);
