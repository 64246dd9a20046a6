/** `GET /api/v1/transactions/{transactionId}/scheduled-messages`: the deal's active scheduled messages. */
import { plannedOperation } from '#api/operation';
import { uuidPath } from '#api/params';

export default plannedOperation({
  operationId: 'listScheduledMessages',
  method: 'GET',
  path: '/api/v1/transactions/{transactionId}/scheduled-messages',
  access: 'read',
  summary: "The deal's active scheduled messages.",
  schemas: () => ({ path: uuidPath('transactionId') }),
  planned: 'issue #9 (messaging and contacts)',
});
