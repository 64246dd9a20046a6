/** `GET /api/v1/transactions/{transactionId}/documents`: the deal's documents in display order. */
import { defineOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { documentView, listTransactionDocuments as listDocuments } from '#db/documents';
import { getTransactionHead } from '#db/transactions';
import { listOf } from '#api/responses/common';
import { Document } from '#api/responses/documents';

export default defineOperation({
  operationId: 'listTransactionDocuments',
  method: 'GET',
  path: '/api/v1/transactions/{transactionId}/documents',
  access: 'read',
  summary: "The deal's documents in their display order.",
  response: () => listOf(Document),
  designedHere: true,
  schemas: () => ({ path: uuidPath('transactionId') }),
  /** The documents (404 for a deal that is absent or another organization's). */
  handler: async ({ path }, { principal }) => {
    await getTransactionHead(principal.orgId, path.transactionId);
    return { body: { data: (await listDocuments(principal.orgId, path.transactionId)).map(documentView) } };
  },
});
