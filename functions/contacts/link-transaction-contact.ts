/** `POST /api/v1/transactions/{transactionId}/contacts`: links an existing contact to the deal with a role. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { uuid } from '#api/params';

export default plannedOperation({
  operationId: 'linkTransactionContact',
  method: 'POST',
  path: '/api/v1/transactions/{transactionId}/contacts',
  access: 'actions',
  summary: 'Links an existing contact to the deal with a role.',
  schemas: () => ({
    path: z.object({ transactionId: uuid() }),
    body: z.object({
      contactId: z.nullable(uuid()),
      role: z.nullable(z.string().check(z.maxLength(100))),
      isPrimary: z.nullable(z.boolean()),
    }),
  }),
  planned: 'issue #9 (messaging and contacts)',
});
