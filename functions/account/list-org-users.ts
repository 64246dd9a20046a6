/** `GET /api/v1/org/users`: the organization's assignable members. */
import { defineOperation } from '#api/operation';
import { listUsers } from '#db/orgs';
import { listOf } from '#api/responses/common';
import { OrgUser } from '#api/responses/meta';

export default defineOperation({
  operationId: 'listOrgUsers',
  method: 'GET',
  path: '/api/v1/org/users',
  access: 'read',
  summary: 'Assignable team members of the organization.',
  response: () => listOf(OrgUser),
  handler: async (_input, { principal }) => ({
    body: { data: await listUsers(principal.orgId) },
  }),
});
