/**
 * Manifest: the Documents group of spec "Documents and extractions" (11 operations): upload URL, base64
 * upload, start extraction, plus the document operations the spec leaves "not shown" (list, read,
 * download URL, update, delete — designed here), and the three document rows of spec "Transactions"
 * (reorder, share by SMS link, missing documents). Scopes and bodies of the Documents table are not
 * shown in the spec; they are this service's design.
 */
import * as z from '#api/zod';
import type { OperationSpec } from '#api/types';
import { int32, uuid } from '#api/params';
import { classifyText, DOCUMENT_TYPES, MAX_DOCUMENT_BYTES, MAX_INLINE_BASE64_CHARS, PDF_CONTENT_TYPE } from '#domain/documents';

const planned = { status: 'planned', issue: '#3 extraction pipeline' } as const;
const implemented = { status: 'implemented' } as const;
const txnPath = z.object({ transactionId: uuid() });
const docPath = z.object({ documentId: uuid() });

/** A stored file name (no path separators). */
const fileName = () =>
  z
    .string()
    .check(z.trim(), z.minLength(1), z.maxLength(255), z.regex(/^[^/\\]+$/, 'must not contain path separators'));
/** MIME type: only `application/pdf` is accepted (extraction reads PDFs); defaults to it. */
const contentType = () =>
  z._default(
    z.string().check(z.refine((v: string) => v.trim().toLowerCase() === PDF_CONTENT_TYPE, `must be ${PDF_CONTENT_TYPE}: only PDF documents are accepted`)),
    PDF_CONTENT_TYPE,
  );
/**
 * A document type (vocabulary designed here, see shared/domain/documents.ts): a vocabulary value, or a phrase
 * naming one (e.g. "Earnest Money Receipt").
 */
const documentType = () =>
  z.string().check(
    z.trim(),
    z.minLength(1),
    z.maxLength(100),
    z.refine((v: string) => classifyText(v) !== undefined, `must name a document type: ${DOCUMENT_TYPES.join(', ')}`),
  );

export const documentsOperations: OperationSpec[] = [
  {
    operationId: 'createDocumentUploadUrl',
    method: 'POST',
    path: '/api/v1/documents/upload-url',
    access: 'draft',
    idempotent: false,
    group: 'documents',
    summary: 'Returns a presigned PUT URL to upload a file directly.',
    schemas: () => ({
      body: z.object({
        fileName: fileName(),
        contentType: contentType(),
        /** Exact size of the file to upload, bytes (1 to 25 MB); the URL's signature covers it. */
        sizeBytes: int32({ min: 1, max: MAX_DOCUMENT_BYTES }),
        transactionId: z.nullish(uuid()),
        documentType: z.nullish(documentType()),
        /** Start an extraction when the upload arrives (default true). */
        extract: z._default(z.boolean(), true),
      }),
    }),
    availability: implemented,
    designedHere: true,
  },
  {
    operationId: 'uploadDocument',
    method: 'POST',
    path: '/api/v1/documents',
    access: 'draft',
    idempotent: false,
    group: 'documents',
    summary: 'Uploads a small file as base64 and starts its extraction in one call.',
    schemas: () => ({
      body: z.object({
        fileName: fileName(),
        contentType: contentType(),
        contentBase64: z
          .base64('must be base64 (RFC 4648, no line breaks)')
          .check(
            z.minLength(1, 'is empty: a document has at least one byte'),
            z.maxLength(MAX_INLINE_BASE64_CHARS, `must be at most ${MAX_INLINE_BASE64_CHARS} characters (about 3.75 MB); upload larger files with POST /api/v1/documents/upload-url`),
          ),
        transactionId: z.nullish(uuid()),
        documentType: z.nullish(documentType()),
        /** Start the extraction (default true). */
        extract: z._default(z.boolean(), true),
      }),
    }),
    availability: implemented,
    designedHere: true,
  },
  {
    operationId: 'extractDocument',
    method: 'POST',
    path: '/api/v1/documents/{documentId}/extract',
    access: 'draft',
    idempotent: false,
    group: 'documents',
    summary: 'Starts an extraction job for a document already stored.',
    schemas: () => ({ path: docPath }),
    availability: implemented,
    designedHere: true,
  },
  {
    operationId: 'listTransactionDocuments',
    method: 'GET',
    path: '/api/v1/transactions/{transactionId}/documents',
    access: 'read',
    idempotent: false,
    group: 'documents',
    summary: "The deal's documents in their display order.",
    schemas: () => ({ path: txnPath }),
    availability: implemented,
    designedHere: true,
  },
  {
    operationId: 'getDocument',
    method: 'GET',
    path: '/api/v1/documents/{documentId}',
    access: 'read',
    idempotent: false,
    group: 'documents',
    summary: 'One document with its document type and extraction state.',
    schemas: () => ({ path: docPath }),
    availability: implemented,
    designedHere: true,
  },
  {
    operationId: 'getDocumentDownloadUrl',
    method: 'GET',
    path: '/api/v1/documents/{documentId}/download-url',
    access: 'read',
    idempotent: false,
    group: 'documents',
    summary: 'Returns a short-lived download URL of the stored file.',
    schemas: () => ({ path: docPath }),
    availability: implemented,
    designedHere: true,
  },
  {
    operationId: 'updateDocument',
    method: 'PATCH',
    path: '/api/v1/documents/{documentId}',
    access: 'draft',
    idempotent: false,
    group: 'documents',
    summary: "Changes a document's type or name, or attaches it to a deal.",
    schemas: () => ({
      path: docPath,
      body: z
        .object({
          documentType: z.optional(documentType()),
          name: z.optional(fileName()),
          transactionId: z.optional(uuid()),
        })
        .check(
          z.refine(
            (b) => b.documentType !== undefined || b.name !== undefined || b.transactionId !== undefined,
            'give at least one of documentType, name, transactionId',
          ),
        ),
    }),
    availability: implemented,
    designedHere: true,
  },
  {
    operationId: 'deleteDocument',
    method: 'DELETE',
    path: '/api/v1/documents/{documentId}',
    access: 'actions',
    idempotent: false,
    group: 'documents',
    summary: 'Deletes a document and its stored file.',
    schemas: () => ({ path: docPath }),
    availability: implemented,
    designedHere: true,
  },
  {
    operationId: 'reorderTransactionDocuments',
    method: 'POST',
    path: '/api/v1/transactions/{transactionId}/documents/reorder',
    access: 'draft',
    idempotent: false,
    group: 'documents',
    summary: "Sets the display order of the deal's documents.",
    schemas: () => ({
      path: txnPath,
      body: z.object({ orderedDocumentIds: z.nullable(z.array(uuid()).check(z.maxLength(1000))) }),
    }),
    availability: implemented,
  },
  {
    operationId: 'shareTransactionDocument',
    method: 'POST',
    path: '/api/v1/transactions/{transactionId}/documents/{documentId}/share',
    access: 'actions',
    idempotent: true,
    group: 'documents',
    summary: 'Shares a deal document by secure SMS link.',
    schemas: () => ({
      path: z.object({ transactionId: uuid(), documentId: uuid() }),
      body: z.object({
        contactId: z.nullable(uuid()),
        expirationHours: z.nullable(int32({ min: 1 })),
        message: z.nullable(z.string().check(z.maxLength(2000))),
        toPhoneNumber: z.nullable(z.string().check(z.maxLength(32))),
      }),
    }),
    availability: planned,
  },
  {
    operationId: 'listMissingDocuments',
    method: 'GET',
    path: '/api/v1/transactions/{transactionId}/missing-documents',
    access: 'read',
    idempotent: false,
    group: 'documents',
    summary: 'Documents missing against the purchase baseline.',
    schemas: () => ({ path: txnPath }),
    availability: implemented,
  },
];
