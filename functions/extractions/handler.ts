/** Lambda for the `extractions` group: start a job, read it, and a short-lived URL of its source PDF. */
import { groupHandler } from '#http/pipeline';
import { startExtraction } from './start-extraction.ts';
import { getExtraction } from './get-extraction.ts';
import { getExtractionSourceUrl } from './get-extraction-source-url.ts';

/** operationId → implementation. */
export const operations = { startExtraction, getExtraction, getExtractionSourceUrl };
/** The group's Lambda handler (API Gateway HTTP API v2 events). */
export const handler = groupHandler('extractions', operations);
