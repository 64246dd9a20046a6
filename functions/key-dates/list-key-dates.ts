/** `GET /api/v1/transactions/{transactionId}/key-dates`: the deal's key dates, soonest first. */
import { defineOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { listKeyDates as list } from '#db/key-dates';
import { listOf } from '#api/responses/common';
import { KeyDate } from '#api/responses/deals';

export default defineOperation({
  operationId: 'listKeyDates',
  method: 'GET',
  path: '/api/v1/transactions/{transactionId}/key-dates',
  access: 'read',
  summary: "A transaction's key dates, soonest first.",
  response: () => listOf(KeyDate),
  schemas: () => ({ path: uuidPath('transactionId') }),
  handler: async ({ path }, { principal }) => ({
    body: { data: await list(principal.orgId, path.transactionId) },
  }),
});
