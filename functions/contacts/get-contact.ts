/** `GET /api/v1/contacts/{contactId}`: one contact with its recent activity. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { int32, uuidPath } from '#api/params';

export default plannedOperation({
  operationId: 'getContact',
  method: 'GET',
  path: '/api/v1/contacts/{contactId}',
  access: 'read',
  summary: 'One contact with its recent activity.',
  schemas: () => ({
    path: uuidPath('contactId'),
    query: z.object({ activityLimit: z._default(int32({ min: 0, max: 100 }), 10) }),
  }),
  planned: 'issue #9 (messaging and contacts)',
});
