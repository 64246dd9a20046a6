/** `GET /api/v1/documents/{documentId}`: one document with its type, upload state, extraction state and latest job. */
import type { OperationHandler } from '#http/context';
import { documentView, getDocument as get } from '#db/documents';

/** The document (404 for another organization's). */
export const getDocument: OperationHandler = async ({ path }, { principal }) => ({
  body: { data: documentView(await get(principal.orgId, path.documentId)) },
});
