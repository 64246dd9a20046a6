/** `POST /api/v1/transactions/{transactionId}/draft-message`: generates a message draft for the deal; never sends. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { label, text } from '#api/schemas/messaging';

export default plannedOperation({
  operationId: 'draftTransactionMessage',
  method: 'POST',
  path: '/api/v1/transactions/{transactionId}/draft-message',
  access: 'draft',
  summary: 'Generates a message draft for the deal; never sends.',
  schemas: () => ({
    path: uuidPath('transactionId'),
    body: z.object({
      intent: z.string().check(z.trim(), z.minLength(1), z.maxLength(2000)),
      additionalContext: z.nullable(text()),
      recipientName: z.nullable(z.string().check(z.maxLength(200))),
      recipientRole: z.nullable(label()),
    }),
  }),
  planned: 'issue #9 (messaging and contacts)',
});
