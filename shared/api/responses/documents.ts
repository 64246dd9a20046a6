/**
 * Response schemas of documents and extraction jobs (spec "Documents and extractions", "Extraction job"), as
 * shared/db/documents.ts `documentView` and shared/db/extraction-jobs.ts `jobView` return them.
 */
import * as z from '#api/zod';
import { DOCUMENT_TYPES } from '#domain/documents';
import { dataOf, id, nullableString, presigned, resource, timestamp } from '#api/responses/common';

const errorDetail = () => z.object({ code: z.string(), message: z.string() });

export const Document = resource(
  'Document',
  'A file of a deal (or not yet attached), with its classified type, upload state and latest extraction state.',
  z.object({
    id: id(),
    transactionId: z.nullable(id()),
    name: z.string(),
    documentType: z.enum(DOCUMENT_TYPES),
    documentTypeSource: z.enum(['declared', 'extraction', 'filename']),
    contentType: z.string(),
    /** Bytes: declared at upload-url time, then the stored size. */
    sizeBytes: z.nullable(z.int()),
    uploadState: z.enum(['awaiting_upload', 'uploaded', 'failed']),
    uploadError: z.nullable(errorDetail()),
    extractionState: z.enum(['none', 'queued', 'running', 'completed', 'failed']),
    latestJobId: z.nullable(id()),
    order: z.int(),
    createdAt: timestamp(),
    updatedAt: timestamp(),
    uploadedAt: z.nullable(timestamp()),
    createdBy: nullableString(),
  }),
);

export const Citation = resource(
  'Citation',
  'Where a value was read: page (1-based), the text, and its bounding box (fractions of the page).',
  z.object({ page: z.int(), text: z.string(), boundingBox: z.object({ left: z.number(), top: z.number(), width: z.number(), height: z.number() }) }),
);

export const ExtractedField = resource(
  'ExtractedField',
  'One extracted field: value (null when not found), confidence 0–1, citations and warnings.',
  z.object({ value: z.unknown(), confidence: z.number(), citations: z.array(Citation), warnings: z.array(z.string()) }),
);

export const ExtractionResult = resource(
  'ExtractionResult',
  'A proposal read from a contract; nothing touches a deal until `POST /api/v1/transactions` applies it.',
  z.object({
    formType: z.string(),
    pageCount: z.int(),
    fields: z.record(z.string(), ExtractedField),
    keyDates: z.array(z.looseObject({ keyDateType: z.string() })),
    warnings: z.array(z.string()),
    confidence: z.number(),
    requiresReview: z.boolean(),
    /** The form's printed terms used to compute key dates. */
    terms: z.optional(z.record(z.string(), z.unknown())),
  }),
);

export const ExtractionJob = resource(
  'ExtractionJob',
  'An extraction job: queued → running → completed | failed (tens of seconds).',
  z.object({
    jobId: id(),
    documentId: id(),
    transactionId: z.nullable(id()),
    state: z.enum(['queued', 'running', 'completed', 'failed']),
    createdAt: timestamp(),
    startedAt: z.nullable(timestamp()),
    completedAt: z.nullable(timestamp()),
    result: z.nullable(ExtractionResult),
    error: z.nullable(errorDetail()),
    appliedTransactionId: z.nullable(id()),
  }),
);

/** `{ data: ExtractionJob }`. */
export const jobResponse = () => dataOf(ExtractionJob);
/** `{ data: Document }`. */
export const documentResponse = () => dataOf(Document);

/** `POST /documents/upload-url`: where to PUT the file. */
export const uploadUrlResponse = () =>
  dataOf(
    z.object({
      documentId: id(),
      uploadUrl: z.string(),
      method: z.literal('PUT'),
      expiresAt: timestamp(),
      requiredHeaders: z.record(z.string(), z.string()),
      key: z.string(),
      maxSizeBytes: z.int(),
      document: Document,
    }),
  );

/** `GET /documents/{documentId}/download-url`. */
export const downloadUrlResponse = () =>
  dataOf(z.object({ documentId: id(), fileName: z.string(), contentType: z.string(), sizeBytes: z.nullable(z.int()), ...presigned('GET') }));

/** `GET /extractions/{jobId}/source-url`. */
export const sourceUrlResponse = () => dataOf(z.object({ jobId: id(), documentId: id(), ...presigned('GET') }));

/** `POST /documents`: the stored document and its extraction job (null when `extract` is false). */
export const uploadResponse = () => dataOf(z.object({ documentId: id(), jobId: z.nullable(id()), document: Document }));

const requiredDocument = z.object({ documentType: z.enum(DOCUMENT_TYPES), label: z.string(), reason: z.string() });

/** `GET .../missing-documents`: baseline documents missing, those present, and the applied contract facts used. */
export const missingDocumentsResponse = () =>
  z.object({
    data: z.array(requiredDocument),
    present: z.array(z.object({ documentType: z.enum(DOCUMENT_TYPES), label: z.string(), documentIds: z.array(id()) })),
    basis: z.nullable(z.object({ extractionJobId: id(), appliedAt: timestamp(), financingType: nullableString(), hoa: z.nullable(z.boolean()) })),
  });
