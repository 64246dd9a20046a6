/** `GET /api/v1/documents/{documentId}/download-url`: a presigned GET URL of the stored file, valid 5 minutes. */
import { defineOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { getDocument } from '#db/documents';
import { presignGet } from '#ports/blob-store';
import { Conflict } from '#domain/errors';
import { downloadUrlResponse } from '#api/responses/documents';

/** Validity of a download URL, seconds. */
export const DOWNLOAD_URL_SECONDS = 300;

export default defineOperation({
  operationId: 'getDocumentDownloadUrl',
  method: 'GET',
  path: '/api/v1/documents/{documentId}/download-url',
  access: 'read',
  summary: 'Returns a short-lived download URL of the stored file.',
  response: () => downloadUrlResponse(),
  designedHere: true,
  uses: ['documents:read'],
  schemas: () => ({ path: uuidPath('documentId') }),
  /** The URL, served as an attachment named like the document (422 on `documentId` before the upload arrived). */
  handler: async ({ path }, { principal }) => {
    const doc = await getDocument(principal.orgId, path.documentId);
    if (doc.uploadState !== 'uploaded') throw new Conflict(`Document ${doc.id} has no stored file (upload state: ${doc.uploadState}).`);
    const issued = Date.now();
    const url = await presignGet(doc.s3Key, DOWNLOAD_URL_SECONDS, doc.name);
    return {
      body: {
        data: {
          documentId: doc.id,
          fileName: doc.name,
          contentType: doc.contentType,
          sizeBytes: doc.sizeBytes,
          url,
          method: 'GET',
          expiresAt: new Date(issued + DOWNLOAD_URL_SECONDS * 1000).toISOString(),
        },
      },
    };
  },
});
