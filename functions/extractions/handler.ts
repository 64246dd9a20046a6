/** Lambda for the `extractions` group: start a job, read it, and a short-lived URL of its source PDF. */
import { groupHandler } from '#http/pipeline';
import { extractionsOperations } from '#api/manifest/extractions';
import { startExtraction } from './start-extraction.ts';
import { getExtraction } from './get-extraction.ts';
import { getExtractionSourceUrl } from './get-extraction-source-url.ts';

/** operationId → implementation. */
export const operations = { startExtraction, getExtraction, getExtractionSourceUrl };
/** The group's operations (manifest): the only routes this function resolves. */
export const manifest = extractionsOperations;
/** The group's Lambda handler (API Gateway HTTP API v2 events). */
export const handler = groupHandler('extractions', manifest, operations);
