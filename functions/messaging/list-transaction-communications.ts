/** `GET /api/v1/transactions/{transactionId}/communications`: the deal's communications across all channels (SMS, email, in-app). */
import { plannedOperation } from '#api/operation';
import { uuidPath } from '#api/params';

export default plannedOperation({
  operationId: 'listTransactionCommunications',
  method: 'GET',
  path: '/api/v1/transactions/{transactionId}/communications',
  access: 'read',
  summary: "The deal's communications across all channels (SMS, email, in-app).",
  schemas: () => ({ path: uuidPath('transactionId') }),
  planned: 'issue #9 (messaging and contacts)',
});
