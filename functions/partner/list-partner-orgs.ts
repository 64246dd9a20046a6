/** `GET /api/v1/orgs`: organizations provisioned by the partner. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { int32 } from '#api/params';

export default plannedOperation({
  operationId: 'listPartnerOrgs',
  method: 'GET',
  path: '/api/v1/orgs',
  access: 'partner',
  summary: 'Organizations provisioned by the partner.',
  schemas: () => ({
    query: z.object({
      limit: z._default(int32({ min: 1, max: 100 }), 25),
      offset: z._default(int32({ min: 0 }), 0),
    }),
  }),
  planned: 'issue #10 (partner tier)',
});
