/**
 * Manifest: the Extractions group of spec "Documents and extractions" (3 operations): start a job, read
 * its state and results, and a short-lived URL of the source PDF. The spec shows neither scopes nor the
 * start body ("referencing the completed upload"); both are designed here.
 */
import * as z from '#api/zod';
import type { OperationSpec } from '#api/types';
import { uuid } from '#api/params';

const implemented = { status: 'implemented' } as const;
const jobPath = z.object({ jobId: uuid() });

export const extractionsOperations: OperationSpec[] = [
  {
    operationId: 'startExtraction',
    method: 'POST',
    path: '/api/v1/extractions',
    access: 'draft',
    idempotent: false,
    group: 'extractions',
    summary: 'Starts an extraction job from a completed upload (its documentId).',
    schemas: () => ({ body: z.object({ documentId: uuid() }) }),
    availability: implemented,
    designedHere: true,
  },
  {
    operationId: 'getExtraction',
    method: 'GET',
    path: '/api/v1/extractions/{jobId}',
    access: 'read',
    idempotent: false,
    group: 'extractions',
    summary: 'Job state and, once completed, results with confidence, citations and warnings.',
    schemas: () => ({ path: jobPath }),
    availability: implemented,
    designedHere: true,
  },
  {
    operationId: 'getExtractionSourceUrl',
    method: 'GET',
    path: '/api/v1/extractions/{jobId}/source-url',
    access: 'read',
    idempotent: false,
    group: 'extractions',
    summary: 'Returns a short-lived URL of the source PDF.',
    schemas: () => ({ path: jobPath }),
    availability: implemented,
    designedHere: true,
  },
];
