/**
 * The OCR blocks file of an extraction job: the whole `OcrResult` (pages, Textract-shaped blocks, method per page,
 * OCR warnings) as JSON in the documents bucket at `ocr/<orgId>/<jobId>/blocks.json`. Step Functions payloads are
 * limited to 256 KB and a contract's blocks run to megabytes, so the steps pass only the key. The bucket expires
 * the `ocr/` prefix after 30 days (lib/extraction-pipeline.ts); the job's result is kept with the job.
 */
import type { OcrResult } from '#domain/extraction/types';
import { getObjectBytes, putObject } from '#ports/blob-store';
import { OCR_PREFIX } from '#ports/object-prefixes';

/** An `OcrResult` as stored: plus OCR warnings (e.g. Textract's `PAGES_FAILED on pages 3`), empty when none. */
export type StoredOcrResult = OcrResult & { warnings?: string[] };

/** The blocks file key of a job: `ocr/<orgId>/<jobId>/blocks.json`. */
export const blocksKeyOf = (orgId: string, jobId: string): string => `${OCR_PREFIX}${orgId}/${jobId}/blocks.json`;

/** Writes `ocr` as JSON at `key` (`application/json`). */
export async function writeOcrResult(key: string, ocr: StoredOcrResult): Promise<void> {
  await putObject(key, new TextEncoder().encode(JSON.stringify(ocr)), 'application/json');
}

/**
 * Reads the blocks file at `key`.
 * @throws Error when it is missing (S3 `NoSuchKey`) or not an `OcrResult`
 */
export async function readOcrResult(key: string): Promise<StoredOcrResult> {
  const parsed = JSON.parse(new TextDecoder().decode(await getObjectBytes(key))) as StoredOcrResult;
  if (!parsed || !Array.isArray(parsed.blocks) || typeof parsed.pageCount !== 'number') throw new Error(`${key} is not an OCR result`);
  return parsed;
}
