/** `GET /api/v1/form-submissions`: form submissions, filtered by form, purpose, status, deal and time. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { dateTime, int32, uuid } from '#api/params';
import { filter } from '#api/schemas/templates';

export default plannedOperation({
  operationId: 'listFormSubmissions',
  method: 'GET',
  path: '/api/v1/form-submissions',
  access: 'read',
  summary: 'Form submissions, filtered by form, purpose, status, deal and time.',
  schemas: () => ({
    query: z.object({
      formDefinitionId: z.optional(uuid()),
      formPurpose: filter(),
      limit: z.optional(int32({ min: 1, max: 100 })),
      since: z.optional(dateTime()),
      status: filter(),
      transactionId: z.optional(uuid()),
    }),
  }),
  planned: 'issue #12 (pages for people outside the team)',
});
