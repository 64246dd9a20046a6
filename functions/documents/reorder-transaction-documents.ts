/**
 * `POST /api/v1/transactions/{transactionId}/documents/reorder`: sets the display order of the deal's
 * documents; `orderedDocumentIds` must list each of them exactly once (422 otherwise).
 */
import type { OperationHandler } from '#http/context';
import { documentView, reorderDocuments } from '#db/documents';
import { ValidationError } from '#http/errors';
import { getTransactionHead } from '#db/transactions';

/** The documents in their new order (404 for a deal that is absent or another organization's, before any 422). */
export const reorderTransactionDocuments: OperationHandler = async ({ path, body }, { principal, now }) => {
  await getTransactionHead(principal.orgId, path.transactionId);
  if (body.orderedDocumentIds === null) throw new ValidationError({ orderedDocumentIds: "is required: the transaction's document ids in the new order" });
  const docs = await reorderDocuments(principal.orgId, path.transactionId, body.orderedDocumentIds, now);
  return { body: { data: docs.map(documentView) } };
};
