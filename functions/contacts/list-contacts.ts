/** `GET /api/v1/contacts`: the organization's contacts, filtered by text and type. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { int32 } from '#api/params';

export default plannedOperation({
  operationId: 'listContacts',
  method: 'GET',
  path: '/api/v1/contacts',
  access: 'read',
  summary: "The organization's contacts, filtered by text and type.",
  schemas: () => ({
    query: z.object({
      q: z.optional(z.string().check(z.maxLength(200))),
      type: z.optional(z.string().check(z.maxLength(50))),
      page: z._default(int32({ min: 1, max: 10_000 }), 1),
      pageSize: z._default(int32({ min: 1, max: 100 }), 25),
    }),
  }),
  planned: 'issue #9 (messaging and contacts)',
});
