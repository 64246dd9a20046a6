/** `PATCH /api/v1/transactions/{transactionId}/notes`: replaces the deal's general notes (null clears). */
import type { OperationHandler } from '#http/context';
import { getTransactionHead, updateNotes } from '#db/transactions';

export const updateTransactionNotes: OperationHandler = async ({ path, body }, { principal, now }) => {
  const deal = await getTransactionHead(principal.orgId, path.transactionId);
  return { body: { data: await updateNotes({ orgId: principal.orgId, userId: principal.userId }, deal, body.notes, now) } };
};
