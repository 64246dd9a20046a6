/** `GET /api/v1/transactions/{transactionId}/intake-status`: snapshot of the deal's intake progress. */
import { defineOperation } from '#api/operation';
import { intakeStatusResponse } from '#api/responses/pages';
import { intakeStatus } from '#use-cases/intake';
import { uuidPath } from '#api/params';

export default defineOperation({
  operationId: 'getTransactionIntakeStatus',
  method: 'GET',
  path: '/api/v1/transactions/{transactionId}/intake-status',
  access: 'read',
  summary: "Snapshot of the deal's intake progress.",
  schemas: () => ({ path: uuidPath('transactionId') }),
  response: intakeStatusResponse,
  /** `{data: {transactionId, complete, submittedCount, totalCount, forms[]}}`. */
  handler: async ({ path }, { principal }) => ({ body: { data: await intakeStatus(principal.orgId, path.transactionId) } }),
});
