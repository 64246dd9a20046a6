/** `DELETE /api/v1/orgs/{orgId}/users/{userId}`: removes a user's seat from the organization. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { uuid } from '#api/params';
import { orgId } from '#api/schemas/partner';

export default plannedOperation({
  operationId: 'removePartnerOrgUser',
  method: 'DELETE',
  path: '/api/v1/orgs/{orgId}/users/{userId}',
  access: 'partner',
  summary: "Removes a user's seat from the organization.",
  schemas: () => ({ path: z.object({ orgId: orgId(), userId: uuid() }) }),
  planned: 'issue #10 (partner tier)',
});
