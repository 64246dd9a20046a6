/** `POST /api/v1/transactions/{transactionId}/conversations`: starts a deal conversation by sending the first SMS. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { text } from '#api/schemas/messaging';

export default plannedOperation({
  operationId: 'startTransactionConversation',
  method: 'POST',
  path: '/api/v1/transactions/{transactionId}/conversations',
  access: 'actions',
  idempotent: true,
  summary: 'Starts a deal conversation by sending the first SMS.',
  schemas: () => ({
    path: uuidPath('transactionId'),
    body: z.object({
      contactId: z.nullable(z.string().check(z.maxLength(100))),
      toPhoneNumber: z.nullable(z.string().check(z.maxLength(32))),
      messageContent: z.nullable(text()),
      forceOverride: z.boolean(),
    }),
  }),
  planned: 'issue #9 (messaging and contacts)',
});
