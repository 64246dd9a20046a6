/** `GET /api/v1/transactions/{transactionId}/checklist`: aggregate status of the deal's checklist. */
import { defineOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { dataOf } from '#api/responses/common';
import { TransactionChecklist } from '#api/responses/checklists';
import { getTransactionChecklist } from '#use-cases/checklists';

export default defineOperation({
  operationId: 'getTransactionChecklist',
  method: 'GET',
  path: '/api/v1/transactions/{transactionId}/checklist',
  access: 'read',
  summary: "Aggregate status of the deal's checklist: counts overall and per section, and each item's task state.",
  response: () => dataOf(TransactionChecklist),
  schemas: () => ({ path: uuidPath('transactionId') }),
  handler: async ({ path }, { principal, now }) => ({ body: { data: await getTransactionChecklist(principal.orgId, path.transactionId, now) } }),
});
