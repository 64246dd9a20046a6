/** `GET /api/v1/documents/{documentId}`: one document with its type, upload state, extraction state and latest job. */
import { defineOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { documentView, getDocument as get } from '#db/documents';
import { documentResponse } from '#api/responses/documents';

export default defineOperation({
  operationId: 'getDocument',
  method: 'GET',
  path: '/api/v1/documents/{documentId}',
  access: 'read',
  summary: 'One document with its document type and extraction state.',
  response: () => documentResponse(),
  designedHere: true,
  schemas: () => ({ path: uuidPath('documentId') }),
  /** The document (404 for another organization's). */
  handler: async ({ path }, { principal }) => ({
    body: { data: documentView(await get(principal.orgId, path.documentId)) },
  }),
});
