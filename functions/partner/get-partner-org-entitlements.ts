/** `GET /api/v1/orgs/{orgId}/entitlements`: the organization's plan, seats and AI fair-use pool state. */
import { defineOperation } from '#api/operation';
import { dataOf } from '#api/responses/common';
import { PartnerOrgEntitlements } from '#api/responses/partner';
import { orgPath } from '#api/schemas/partner';
import { entitlements, ownedOrg } from '#use-cases/partner-orgs';

export default defineOperation({
  operationId: 'getPartnerOrgEntitlements',
  method: 'GET',
  path: '/api/v1/orgs/{orgId}/entitlements',
  access: 'partner',
  summary: "The organization's plan, seats and AI fair-use pool state.",
  designedHere: true,
  schemas: () => ({ path: orgPath() }),
  response: () => dataOf(PartnerOrgEntitlements),
  handler: async ({ path }, { principal, now }) => ({ body: { data: await entitlements(await ownedOrg(principal.orgId, path.orgId), now) } }),
});
