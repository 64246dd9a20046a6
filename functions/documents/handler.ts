/**
 * Lambda for the `documents` group: uploads (presigned URL or base64), extraction start, read, download
 * URL, update, delete, the deal's document list, order and missing documents. `share` stays planned (501).
 */
import { groupHandler } from '#http/pipeline';
import { documentsOperations } from '#api/manifest/documents';
import { createDocumentUploadUrl } from './create-document-upload-url.ts';
import { uploadDocument } from './upload-document.ts';
import { extractDocument } from './extract-document.ts';
import { listTransactionDocuments } from './list-transaction-documents.ts';
import { getDocument } from './get-document.ts';
import { getDocumentDownloadUrl } from './get-document-download-url.ts';
import { updateDocument } from './update-document.ts';
import { deleteDocument } from './delete-document.ts';
import { reorderTransactionDocuments } from './reorder-transaction-documents.ts';
import { listMissingDocuments } from './list-missing-documents.ts';

/** operationId → implementation. */
export const operations = {
  createDocumentUploadUrl,
  uploadDocument,
  extractDocument,
  listTransactionDocuments,
  getDocument,
  getDocumentDownloadUrl,
  updateDocument,
  deleteDocument,
  reorderTransactionDocuments,
  listMissingDocuments,
};
/** The group's operations (manifest): the only routes this function resolves. */
export const manifest = documentsOperations;
/** The group's Lambda handler (API Gateway HTTP API v2 events). */
export const handler = groupHandler('documents', manifest, operations);
