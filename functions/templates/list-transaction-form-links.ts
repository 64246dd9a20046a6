/** `GET /api/v1/transactions/{transactionId}/form-links`: the deal's intake-form links. */
import { plannedOperation } from '#api/operation';
import { uuidPath } from '#api/params';

export default plannedOperation({
  operationId: 'listTransactionFormLinks',
  method: 'GET',
  path: '/api/v1/transactions/{transactionId}/form-links',
  access: 'read',
  summary: "The deal's intake-form links.",
  schemas: () => ({ path: uuidPath('transactionId') }),
  planned: 'issue #12 (pages for people outside the team)',
});
