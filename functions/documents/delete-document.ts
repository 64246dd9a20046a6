/**
 * `DELETE /api/v1/documents/{documentId}`: deletes the document item with `document.deleted` (one
 * transaction), then its stored file. Extraction jobs of the document are kept (their results stay readable).
 */
import type { OperationHandler } from '#http/context';
import { deleteDocumentItem } from '#db/documents';
import { deleteObject } from '#ports/blob-store';

/** `{data: {documentId, deleted: true}}` (404 for another organization's). */
export const deleteDocument: OperationHandler = async ({ path }, { principal, now }) => {
  const doc = await deleteDocumentItem({ orgId: principal.orgId, userId: principal.userId }, path.documentId, now);
  try {
    await deleteObject(doc.s3Key);
  } catch (err) {
    // The item is gone; a file left behind is unreachable through the API and only costs storage.
    console.error(JSON.stringify({ level: 'error', msg: 'stored file not deleted', orgId: principal.orgId, documentId: doc.id, error: err instanceof Error ? err.message : String(err) }));
  }
  return { body: { data: { documentId: doc.id, deleted: true } } };
};
