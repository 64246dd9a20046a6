/** `GET /api/v1/transactions/{transactionId}`: the deal with its key dates, tasks and recent activity. */
import { defineOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { getDeal } from '#db/transactions';
import { dealResponse } from '#api/responses/deals';

export default defineOperation({
  operationId: 'getTransaction',
  method: 'GET',
  path: '/api/v1/transactions/{transactionId}',
  access: 'read',
  summary: 'One deal with its key dates, open tasks and recent activity (one item-collection query).',
  response: () => dealResponse(),
  schemas: () => ({ path: uuidPath('transactionId') }),
  handler: async ({ path }, { principal }) => ({
    body: { data: await getDeal(principal.orgId, path.transactionId) },
  }),
});
