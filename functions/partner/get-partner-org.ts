/** `GET /api/v1/orgs/{orgId}`: one provisioned organization. */
import { plannedOperation } from '#api/operation';
import { orgPath } from '#api/schemas/partner';

export default plannedOperation({
  operationId: 'getPartnerOrg',
  method: 'GET',
  path: '/api/v1/orgs/{orgId}',
  access: 'partner',
  summary: 'One provisioned organization.',
  schemas: () => ({ path: orgPath() }),
  planned: 'issue #10 (partner tier)',
});
