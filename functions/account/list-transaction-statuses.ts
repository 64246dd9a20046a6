/** `GET /api/v1/transaction-statuses`: the organization's selectable statuses, in display order. */
import type { OperationHandler } from '#http/context';
import { getStatusVocabulary } from '#db/statuses';

export const listTransactionStatuses: OperationHandler = async (_input, { principal }) => {
  const statuses = await getStatusVocabulary(principal.orgId);
  return {
    body: {
      data: statuses.map((s, order) => ({ name: s.name, category: s.category, description: s.description, order, isTerminal: s.category === 'closed' || s.category === 'cancelled' })),
    },
  };
};
