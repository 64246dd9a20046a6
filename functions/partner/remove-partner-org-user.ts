/** `DELETE /api/v1/orgs/{orgId}/users/{userId}`: removes a user's seat; their OAuth tokens stop working at once. */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { uuid } from '#api/params';
import { deletedOf } from '#api/responses/common';
import { orgId } from '#api/schemas/partner';
import { ownedOrg, removeSeat } from '#use-cases/partner-orgs';

export default defineOperation({
  operationId: 'removePartnerOrgUser',
  method: 'DELETE',
  path: '/api/v1/orgs/{orgId}/users/{userId}',
  access: 'partner',
  summary: "Removes a user's seat from the organization.",
  designedHere: true,
  uses: ['table:delete'],
  schemas: () => ({ path: z.object({ orgId: orgId(), userId: uuid() }) }),
  response: () => deletedOf('userId'),
  handler: async ({ path }, { principal }) => {
    await removeSeat(await ownedOrg(principal.orgId, path.orgId), path.userId);
    return { body: { deleted: true, userId: path.userId } };
  },
});
