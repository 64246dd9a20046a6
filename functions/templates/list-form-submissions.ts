/** `GET /api/v1/form-submissions`: form submissions, filtered by form, purpose, status, deal and time. */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { formSubmissionsResponse } from '#api/responses/pages';
import { listSubmissions } from '#db/form-submissions';
import { getTransactionHead } from '#db/transactions';
import { dateTime, int32, uuid } from '#api/params';
import { filter } from '#api/schemas/templates';

export default defineOperation({
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
  example: { query: { limit: 10 } },
  response: formSubmissionsResponse,
  /** `{data: FormSubmission[]}`, newest first; `limit` defaults to 25. 404 for a `transactionId` not of the organization. */
  handler: async ({ query }, { principal }) => {
    if (query.transactionId) await getTransactionHead(principal.orgId, query.transactionId);
    return { body: { data: await listSubmissions(principal.orgId, { ...query, limit: query.limit ?? 25 }) } };
  },
});
