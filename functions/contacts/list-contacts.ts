/** `GET /api/v1/contacts`: the organization's contacts sorted by name, filtered by text (`q`) and `type`. */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { int32 } from '#api/params';
import { listContacts } from '#db/contacts';
import { CONTACT_TYPES } from '#domain/contact-fields';
import { pageOf } from '#api/responses/common';
import { Contact } from '#api/responses/contacts';

export default defineOperation({
  operationId: 'listContacts',
  method: 'GET',
  path: '/api/v1/contacts',
  access: 'read',
  summary: "The organization's contacts sorted by name; q matches name, email, company or phone digits.",
  response: () => pageOf(Contact),
  schemas: () => ({
    query: z.object({
      q: z.optional(z.string().check(z.maxLength(200))),
      type: z.optional(z.enum(CONTACT_TYPES)),
      page: z._default(int32({ min: 1, max: 10_000 }), 1),
      pageSize: z._default(int32({ min: 1, max: 100 }), 25),
    }),
  }),
  example: { query: { q: 'quillfeather', type: 'person', pageSize: '10' } },
  handler: async ({ query }, { principal }) => ({ body: await listContacts(principal.orgId, query) }),
});
