/** `PATCH /api/v1/transactions/{transactionId}/notes`: replaces the deal's general notes (null clears). */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { getTransactionHead, updateNotes } from '#db/transactions';
import { dataOf } from '#api/responses/common';
import { Transaction } from '#api/responses/deals';

export default defineOperation({
  operationId: 'updateTransactionNotes',
  method: 'PATCH',
  path: '/api/v1/transactions/{transactionId}/notes',
  access: 'draft',
  summary: 'Replaces the general notes; null clears them.',
  response: () => dataOf(Transaction),
  schemas: () => ({ path: uuidPath('transactionId'), body: z.object({ notes: z.nullable(z.string().check(z.maxLength(50_000))) }) }),
  example: { body: { notes: 'Buyer prefers text messages.' } },
  handler: async ({ path, body }, { principal, now }) => {
    const deal = await getTransactionHead(principal.orgId, path.transactionId);
    return { body: { data: await updateNotes(principal, deal, body.notes, now) } };
  },
});
