/** `GET /api/v1/transactions/{transactionId}/merge-fields`: the deal's template merge fields and their values. */
import { plannedOperation } from '#api/operation';
import { uuidPath } from '#api/params';

export default plannedOperation({
  operationId: 'getTransactionMergeFields',
  method: 'GET',
  path: '/api/v1/transactions/{transactionId}/merge-fields',
  access: 'read',
  summary: "The deal's template merge fields and their values.",
  schemas: () => ({ path: uuidPath('transactionId') }),
  planned: 'issue #11 (deal workspace)',
});
