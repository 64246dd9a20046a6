/**
 * `DELETE /api/v1/documents/{documentId}`: deletes the document item with `document.deleted` (one
 * transaction), then its stored file. Extraction jobs of the document are kept (their results stay readable).
 */
import { defineOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { deleteDocument } from '#use-cases/documents';
import { deleteObject } from '#ports/blob-store';
import { logger } from '#observability/powertools';
import * as z from '#api/zod';
import { dataOf, id } from '#api/responses/common';

export default defineOperation({
  operationId: 'deleteDocument',
  method: 'DELETE',
  path: '/api/v1/documents/{documentId}',
  access: 'actions',
  summary: 'Deletes a document and its stored file.',
  response: () => dataOf(z.object({ documentId: id(), deleted: z.literal(true) })),
  designedHere: true,
  uses: ['table:delete', 'documents:write'],
  schemas: () => ({ path: uuidPath('documentId') }),
  /** `{data: {documentId, deleted: true}}` (404 for another organization's). */
  handler: async ({ path }, { principal, now }) => {
    const doc = await deleteDocument(principal, path.documentId, now);
    try {
      await deleteObject(doc.s3Key);
    } catch (err) {
      // The item is gone; a file left behind is unreachable through the API and only costs storage.
      logger.error('stored file not deleted', { documentId: doc.id, key: doc.s3Key, error: err });
    }
    return { body: { data: { documentId: doc.id, deleted: true } } };
  },
});
