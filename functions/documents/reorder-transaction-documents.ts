/**
 * `POST /api/v1/transactions/{transactionId}/documents/reorder`: sets the display order of the deal's
 * documents; `orderedDocumentIds` must list each of them exactly once (422 otherwise).
 */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { uuid, uuidPath } from '#api/params';
import { documentView, reorderDocuments } from '#db/documents';
import { InvalidInput } from '#domain/errors';
import { getTransactionHead } from '#db/transactions';
import { listOf } from '#api/responses/common';
import { Document } from '#api/responses/documents';

export default defineOperation({
  operationId: 'reorderTransactionDocuments',
  method: 'POST',
  path: '/api/v1/transactions/{transactionId}/documents/reorder',
  access: 'draft',
  summary: "Sets the display order of the deal's documents.",
  response: () => listOf(Document),
  schemas: () => ({
    path: uuidPath('transactionId'),
    body: z.object({ orderedDocumentIds: z.nullable(z.array(uuid()).check(z.maxLength(1000))) }),
  }),
  example: { body: { orderedDocumentIds: ['0d3c8f4e-5b7a-4f0e-9a51-3c2b1d4e6f70'] } },
  /** The documents in their new order (404 for a deal that is absent or another organization's, before any 422). */
  handler: async ({ path, body }, { principal, now }) => {
    await getTransactionHead(principal.orgId, path.transactionId);
    if (body.orderedDocumentIds === null)
      throw new InvalidInput({ orderedDocumentIds: "is required: the transaction's document ids in the new order" });
    const docs = await reorderDocuments(principal.orgId, path.transactionId, body.orderedDocumentIds, now);
    return { body: { data: docs.map(documentView) } };
  },
});
