/** `GET /api/v1/contacts/{contactId}`: one contact with its deals (and roles there) and its recent messages. */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { int32, uuidPath } from '#api/params';
import { getContactDetail } from '#use-cases/contacts';
import { dataOf } from '#api/responses/common';
import { ContactDetail } from '#api/responses/contacts';

export default defineOperation({
  operationId: 'getContact',
  method: 'GET',
  path: '/api/v1/contacts/{contactId}',
  access: 'read',
  summary: 'One contact with the deals it is linked to (with roles) and its activityLimit newest messages.',
  response: () => dataOf(ContactDetail),
  schemas: () => ({
    path: uuidPath('contactId'),
    query: z.object({ activityLimit: z._default(int32({ min: 0, max: 100 }), 10) }),
  }),
  example: { query: { activityLimit: '5' } },
  handler: async ({ path, query }, { principal }) => ({ body: { data: await getContactDetail(principal.orgId, path.contactId, query.activityLimit) } }),
});
