/** `GET /api/v1/orgs/{orgId}`: one provisioned organization (404 unless the partner provisioned it). */
import { defineOperation } from '#api/operation';
import { dataOf } from '#api/responses/common';
import { PartnerOrg } from '#api/responses/partner';
import { orgPath } from '#api/schemas/partner';
import { ownedOrg, partnerOrgView } from '#use-cases/partner-orgs';

export default defineOperation({
  operationId: 'getPartnerOrg',
  method: 'GET',
  path: '/api/v1/orgs/{orgId}',
  access: 'partner',
  summary: 'One provisioned organization.',
  designedHere: true,
  schemas: () => ({ path: orgPath() }),
  response: () => dataOf(PartnerOrg),
  handler: async ({ path }, { principal }) => ({ body: { data: await partnerOrgView(await ownedOrg(principal.orgId, path.orgId)) } }),
});
