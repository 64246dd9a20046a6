/** `GET /api/v1/orgs/{orgId}/summary`: the organization's active deals, tasks due and last activity (counts only). */
import { defineOperation } from '#api/operation';
import { dataOf } from '#api/responses/common';
import { PartnerOrgSummary } from '#api/responses/partner';
import { orgPath } from '#api/schemas/partner';
import { activitySummary, ownedOrg } from '#use-cases/partner-orgs';

export default defineOperation({
  operationId: 'getPartnerOrgSummary',
  method: 'GET',
  path: '/api/v1/orgs/{orgId}/summary',
  access: 'partner',
  summary: "The organization's active deals, tasks due and last activity.",
  designedHere: true,
  schemas: () => ({ path: orgPath() }),
  response: () => dataOf(PartnerOrgSummary),
  handler: async ({ path }, { principal, now }) => ({ body: { data: await activitySummary(await ownedOrg(principal.orgId, path.orgId), now) } }),
});
