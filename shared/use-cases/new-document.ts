/** A new document record, before it is stored: shared by the presigned-URL and base64 upload operations. */
import { randomUUID } from 'node:crypto';
import { nextDocumentOrder, type DocumentRecord } from '#db/documents';
import { getTransactionHead } from '#db/transactions';
import { documentKey } from '#ports/blob-store';
import { classifyDocument, PDF_CONTENT_TYPE } from '#domain/documents';

/**
 * Builds a new document record (`awaiting_upload`, classified from the declared type or the file name),
 * appended to its deal's order.
 * @throws NotFound when `transactionId` is not a deal of the organization
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
