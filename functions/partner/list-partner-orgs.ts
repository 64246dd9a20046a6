/** `GET /api/v1/orgs`: organizations provisioned by the partner, oldest first. */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { int32 } from '#api/params';
import { PartnerOrgPage } from '#api/responses/partner';
import { listPartnerOrgs } from '#db/partners';
import { partnerOrgView } from '#use-cases/partner-orgs';

export default defineOperation({
  operationId: 'listPartnerOrgs',
  method: 'GET',
  path: '/api/v1/orgs',
  access: 'partner',
  summary: 'Organizations provisioned by the partner.',
  designedHere: true,
  schemas: () => ({
    query: z.object({
      limit: z._default(int32({ min: 1, max: 100 }), 25),
      offset: z._default(int32({ min: 0 }), 0),
    }),
  }),
  response: () => PartnerOrgPage,
  example: { query: { limit: 10, offset: 0 } },
  handler: async ({ query }, { principal }) => {
    const { orgs, hasMore } = await listPartnerOrgs(principal.orgId, query.limit, query.offset);
    return { body: { data: await Promise.all(orgs.map(partnerOrgView)), limit: query.limit, offset: query.offset, hasMore } };
  },
});
