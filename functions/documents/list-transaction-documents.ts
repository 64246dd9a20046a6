/** `GET /api/v1/transactions/{transactionId}/documents`: the deal's documents in display order. */
import type { OperationHandler } from '#http/context';
import { documentView, listTransactionDocuments as listDocuments } from '#db/documents';
import { getTransactionHead } from '#db/transactions';

/** The documents (404 for a deal that is absent or another organization's). */
export const listTransactionDocuments: OperationHandler = async ({ path }, { principal }) => {
  await getTransactionHead(principal.orgId, path.transactionId);
  return { body: { data: (await listDocuments(principal.orgId, path.transactionId)).map(documentView) } };
};
