/** `GET /api/v1/transaction-statuses`: the organization's selectable statuses, in display order. */
import { defineOperation } from '#api/operation';
import { getStatusVocabulary } from '#db/statuses';
import { listOf } from '#api/responses/common';
import { TransactionStatus } from '#api/responses/meta';

export default defineOperation({
  operationId: 'listTransactionStatuses',
  method: 'GET',
  path: '/api/v1/transaction-statuses',
  access: 'read',
  summary: "The organization's selectable transaction statuses, in display order.",
  response: () => listOf(TransactionStatus),
  handler: async (_input, { principal }) => {
    const statuses = await getStatusVocabulary(principal.orgId);
    return {
      body: {
        data: statuses.map((s, order) => ({
          name: s.name,
          category: s.category,
          description: s.description,
          order,
          isTerminal: s.category === 'closed' || s.category === 'cancelled',
        })),
      },
    };
  },
});
