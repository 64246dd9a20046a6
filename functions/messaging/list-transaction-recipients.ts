/** `GET /api/v1/transactions/{transactionId}/recipients`: deal participants with role and per-channel availability. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { uuidPath } from '#api/params';

export default plannedOperation({
  operationId: 'listTransactionRecipients',
  method: 'GET',
  path: '/api/v1/transactions/{transactionId}/recipients',
  access: 'read',
  summary: 'Deal participants with role and per-channel availability.',
  schemas: () => ({ path: uuidPath('transactionId'), query: z.object({ channel: z.optional(z.string().check(z.maxLength(50))) }) }),
  planned: 'issue #9 (messaging and contacts)',
});
