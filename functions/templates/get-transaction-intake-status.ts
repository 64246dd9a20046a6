/** `GET /api/v1/transactions/{transactionId}/intake-status`: snapshot of the deal's intake progress. */
import { plannedOperation } from '#api/operation';
import { uuidPath } from '#api/params';

export default plannedOperation({
  operationId: 'getTransactionIntakeStatus',
  method: 'GET',
  path: '/api/v1/transactions/{transactionId}/intake-status',
  access: 'read',
  summary: "Snapshot of the deal's intake progress.",
  schemas: () => ({ path: uuidPath('transactionId') }),
  planned: 'issue #12 (pages for people outside the team)',
});
