/**
 * `POST /api/v1/transactions/{transactionId}/status-summary`: saves a status summary of the deal for an audience
 * (one per audience: saving again replaces it). The deal read (`GET .../{transactionId}`) lists them.
 */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { dataOf } from '#api/responses/common';
import { StatusSummary } from '#api/responses/deals';
import { saveDealStatusSummary } from '#use-cases/status-summaries';

export default defineOperation({
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
  example: {
    body: {
      audience: 'client',
      subject: 'Where we are this week',
      bodyMarkdown: 'The **option period** ended; financing is on track for the **June 1** closing.',
      keyPointBullets: ['Inspection repairs agreed', 'Appraisal ordered'],
    },
  },
  response: () => dataOf(StatusSummary),
  handler: async ({ path, body }, { principal, now }) => ({ body: { data: await saveDealStatusSummary(principal, path.transactionId, body, now) } }),
});
