/** `GET /api/v1/transactions/{transactionId}/portal-link`: the deal's active client-portal link. */
import { plannedOperation } from '#api/operation';
import { uuidPath } from '#api/params';

export default plannedOperation({
  operationId: 'getTransactionPortalLink',
  method: 'GET',
  path: '/api/v1/transactions/{transactionId}/portal-link',
  access: 'read',
  summary: "The deal's active client-portal link.",
  schemas: () => ({ path: uuidPath('transactionId') }),
  planned: 'issue #12 (pages for people outside the team)',
});
