/** `GET /api/v1/transactions/{transactionId}/checklist`: aggregate status of the deal's checklist. */
import { plannedOperation } from '#api/operation';
import { uuidPath } from '#api/params';

export default plannedOperation({
  operationId: 'getTransactionChecklist',
  method: 'GET',
  path: '/api/v1/transactions/{transactionId}/checklist',
  access: 'read',
  summary: "Aggregate status of the deal's checklist.",
  schemas: () => ({ path: uuidPath('transactionId') }),
  planned: 'issue #11 (deal workspace)',
});
