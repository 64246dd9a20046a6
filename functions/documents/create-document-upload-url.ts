/**
 * `POST /api/v1/documents/upload-url`: creates the document (`awaiting_upload`) and returns a presigned PUT
 * URL valid 15 minutes. The client PUTs the PDF to it with `Content-Type: application/pdf`; the signature
 * covers Content-Type and Content-Length (= `sizeBytes`), so S3 refuses another type or size. The upload's
 * S3 notification (functions/document-uploaded) checks the file and, unless `extract` is false, starts the
 * extraction; the document's `latestJobId` then names the job.
 */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { int32, uuid } from '#api/params';
import { contentType, documentType, fileName } from '#api/schemas/documents';
import { MAX_DOCUMENT_BYTES, PDF_CONTENT_TYPE } from '#domain/documents';
import { createDocument, documentView } from '#db/documents';
import { presignPut } from '#ports/blob-store';
import { newDocument } from '#use-cases/new-document';
import { uploadUrlResponse } from '#api/responses/documents';

/** Validity of an upload URL, seconds (15 minutes). */
export const UPLOAD_URL_SECONDS = 900;

export default defineOperation({
  operationId: 'createDocumentUploadUrl',
  method: 'POST',
  path: '/api/v1/documents/upload-url',
  access: 'draft',
  summary: 'Returns a presigned PUT URL to upload a file directly.',
  response: () => uploadUrlResponse(),
  designedHere: true,
  uses: ['documents:write'],
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
  example: { body: { fileName: 'Purchase contract.pdf', contentType: 'application/pdf', sizeBytes: 482133, documentType: 'purchase_contract' } },
  /** Creates the document and returns `{documentId, uploadUrl, method, expiresAt, requiredHeaders, key, maxSizeBytes, document}`. */
  handler: async ({ body }, { principal, now }) => {
    const doc = await createDocument(await newDocument(principal, body, body.sizeBytes, now));
    // S3 checks expiry against real time, so expiresAt is computed from it too (not the request clock).
    const issued = Date.now();
    const uploadUrl = await presignPut(doc.s3Key, PDF_CONTENT_TYPE, UPLOAD_URL_SECONDS, body.sizeBytes);
    return {
      body: {
        data: {
          documentId: doc.id,
          uploadUrl,
          method: 'PUT',
          expiresAt: new Date(issued + UPLOAD_URL_SECONDS * 1000).toISOString(),
          requiredHeaders: { 'content-type': PDF_CONTENT_TYPE },
          key: doc.s3Key,
          maxSizeBytes: MAX_DOCUMENT_BYTES,
          document: documentView(doc),
        },
      },
    };
  },
});
