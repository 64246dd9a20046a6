/** `POST /api/v1/transactions/{transactionId}/status-summary`: saves a status summary of the deal for an audience. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { uuidPath } from '#api/params';

export default plannedOperation({
  operationId: 'saveTransactionStatusSummary',
  method: 'POST',
  path: '/api/v1/transactions/{transactionId}/status-summary',
  access: 'draft',
  summary: 'Saves a status summary of the deal for an audience.',
  schemas: () => ({
    path: uuidPath('transactionId'),
    body: z.object({
      audience: z.nullable(z.string().check(z.maxLength(100))),
      bodyMarkdown: z.nullable(z.string().check(z.maxLength(50_000))),
      subject: z.nullable(z.string().check(z.maxLength(998))),
      keyPointBullets: z.nullable(z.array(z.string().check(z.maxLength(1000))).check(z.maxLength(50))),
    }),
  }),
  planned: 'issue #11 (deal workspace)',
});
