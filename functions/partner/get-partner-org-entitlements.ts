/** `GET /api/v1/orgs/{orgId}/entitlements`: the organization's plan, seats and AI fair-use pool state. */
import { plannedOperation } from '#api/operation';
import { orgPath } from '#api/schemas/partner';

export default plannedOperation({
  operationId: 'getPartnerOrgEntitlements',
  method: 'GET',
  path: '/api/v1/orgs/{orgId}/entitlements',
  access: 'partner',
  summary: "The organization's plan, seats and AI fair-use pool state.",
  schemas: () => ({ path: orgPath() }),
  planned: 'issue #10 (partner tier)',
});
