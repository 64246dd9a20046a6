/** `GET /api/v1/documents/{documentId}/download-url`: a presigned GET URL of the stored file, valid 5 minutes. */
import type { OperationHandler } from '#http/context';
import { getDocument } from '#db/documents';
import { presignGet } from '#ports/blob-store';
import { ConflictError } from '#http/errors';

/** Validity of a download URL, seconds. */
export const DOWNLOAD_URL_SECONDS = 300;

/** The URL, served as an attachment named like the document (409 before the upload arrived). */
export const getDocumentDownloadUrl: OperationHandler = async ({ path }, { principal }) => {
  const doc = await getDocument(principal.orgId, path.documentId);
  if (doc.uploadState !== 'uploaded') throw new ConflictError(`Document ${doc.id} has no stored file (upload state: ${doc.uploadState}).`);
  const issued = Date.now();
  const url = await presignGet(doc.s3Key, DOWNLOAD_URL_SECONDS, doc.name);
  return {
    body: { data: { documentId: doc.id, fileName: doc.name, contentType: doc.contentType, sizeBytes: doc.sizeBytes, url, method: 'GET', expiresAt: new Date(issued + DOWNLOAD_URL_SECONDS * 1000).toISOString() } },
  };
};
