/** `POST /api/v1/orgs`: provisions an organization with its owner, who is invited by email. */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { dataOf } from '#api/responses/common';
import { PartnerOrg } from '#api/responses/partner';
import { provisionOrg } from '#use-cases/partner-orgs';

export default defineOperation({
  operationId: 'createPartnerOrg',
  method: 'POST',
  path: '/api/v1/orgs',
  access: 'partner',
  summary: 'Provisions an organization with its owner.',
  designedHere: true,
  uses: ['messages:queue'],
  schemas: () => ({
    body: z.object({
      name: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
      owner: z.object({
        email: z.string().check(z.trim(), z.minLength(1), z.maxLength(320)),
        firstName: z.string().check(z.trim(), z.maxLength(100)),
        lastName: z.string().check(z.trim(), z.maxLength(100)),
      }),
    }),
  }),
  response: () => dataOf(PartnerOrg),
  example: { body: { name: 'Lone Star Closings', owner: { email: 'owner@lonestar.example', firstName: 'Ava', lastName: 'Nguyen' } } },
  handler: async ({ body }, { principal, now }) => ({ body: { data: await provisionOrg(principal.orgId, body, now) } }),
});
