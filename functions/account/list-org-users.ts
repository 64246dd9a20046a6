/** `GET /api/v1/org/users`: the organization's assignable members. */
import type { OperationHandler } from '#http/context';
import { listUsers } from '#db/orgs';

export const listOrgUsers: OperationHandler = async (_input, { principal }) => ({
  body: { data: await listUsers(principal.orgId) },
});
