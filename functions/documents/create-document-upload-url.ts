/**
 * `POST /api/v1/documents/upload-url`: creates the document (`awaiting_upload`) and returns a presigned PUT
 * URL valid 15 minutes. The client PUTs the PDF to it with `Content-Type: application/pdf`; the signature
 * covers Content-Type and Content-Length (= `sizeBytes`), so S3 refuses another type or size. The upload's
 * S3 notification (functions/document-uploaded) checks the file and, unless `extract` is false, starts the
 * extraction; the document's `latestJobId` then names the job.
 */
import { randomUUID } from 'node:crypto';
import type { OperationHandler } from '#http/context';
import { createDocument, documentView, nextDocumentOrder, type DocumentRecord } from '#db/documents';
import { getTransactionHead } from '#db/transactions';
import { documentKey, presignPut } from '#ports/blob-store';
import { classifyDocument, MAX_DOCUMENT_BYTES, PDF_CONTENT_TYPE } from '#domain/documents';

/** Validity of an upload URL, seconds (15 minutes). */
export const UPLOAD_URL_SECONDS = 900;

/**
 * Builds a new document record (`awaiting_upload`, classified from the declared type or the file name),
 * appended to its deal's order.
 * @throws NotFoundError when `transactionId` is not a deal of the organization
 */
export async function newDocument(
  principal: { orgId: string; userId: string | null },
  body: { fileName: string; documentType?: string | null; transactionId?: string | null; extract?: boolean },
  sizeBytes: number | null,
  now: Date,
): Promise<DocumentRecord> {
  const transactionId = body.transactionId ?? null;
  if (transactionId) await getTransactionHead(principal.orgId, transactionId);
  const id = randomUUID();
  const { documentType, source } = classifyDocument(body.documentType, body.fileName);
  return {
    id,
    orgId: principal.orgId,
    transactionId,
    name: body.fileName,
    documentType,
    documentTypeSource: source,
    contentType: PDF_CONTENT_TYPE,
    sizeBytes,
    s3Key: documentKey(principal.orgId, id, body.fileName),
    uploadState: 'awaiting_upload',
    uploadError: null,
    extractionState: 'none',
    extractOnUpload: body.extract ?? true,
    latestJobId: null,
    order: transactionId ? await nextDocumentOrder(principal.orgId, transactionId) : 0,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    uploadedAt: null,
    createdBy: principal.userId,
  };
}

/** Creates the document and returns `{documentId, uploadUrl, method, expiresAt, requiredHeaders, key, maxSizeBytes, document}`. */
export const createDocumentUploadUrl: OperationHandler = async ({ body }, { principal, now }) => {
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
};
