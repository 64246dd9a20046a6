/** `GET /api/v1/transactions/{transactionId}/contingencies`: the deal's open contingencies. */
import { plannedOperation } from '#api/operation';
import { uuidPath } from '#api/params';

export default plannedOperation({
  operationId: 'listTransactionContingencies',
  method: 'GET',
  path: '/api/v1/transactions/{transactionId}/contingencies',
  access: 'read',
  summary: "The deal's open contingencies.",
  schemas: () => ({ path: uuidPath('transactionId') }),
  planned: 'issue #11 (deal workspace)',
});
