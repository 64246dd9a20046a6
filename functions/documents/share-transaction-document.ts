/** `POST /api/v1/transactions/{transactionId}/documents/{documentId}/share`: shares a deal document by secure SMS link. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { int32, uuid } from '#api/params';

export default plannedOperation({
  operationId: 'shareTransactionDocument',
  method: 'POST',
  path: '/api/v1/transactions/{transactionId}/documents/{documentId}/share',
  access: 'actions',
  idempotent: true,
  summary: 'Shares a deal document by secure SMS link.',
  schemas: () => ({
    path: z.object({ transactionId: uuid(), documentId: uuid() }),
    body: z.object({
      contactId: z.nullable(uuid()),
      expirationHours: z.nullable(int32({ min: 1 })),
      message: z.nullable(z.string().check(z.maxLength(2000))),
      toPhoneNumber: z.nullable(z.string().check(z.maxLength(32))),
    }),
  }),
  planned: 'issue #9 (messaging and contacts)',
});
