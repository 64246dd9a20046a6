/** `GET /api/v1/transactions/{transactionId}/reports/communication-log`: report of the deal's communications as PDF, ZIP with documents, or JSON. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { dateTime, uuidPath } from '#api/params';

export default plannedOperation({
  operationId: 'getCommunicationLogReport',
  method: 'GET',
  path: '/api/v1/transactions/{transactionId}/reports/communication-log',
  access: 'read',
  summary: "Report of the deal's communications as PDF, ZIP with documents, or JSON.",
  schemas: () => ({
    path: uuidPath('transactionId'),
    query: z.object({
      format: z.optional(z.string().check(z.maxLength(20))),
      from: z.optional(dateTime()),
      to: z.optional(dateTime()),
    }),
  }),
  planned: 'issue #9 (messaging and contacts)',
});
