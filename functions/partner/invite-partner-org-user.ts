/** `POST /api/v1/orgs/{orgId}/users`: invites a user to a seat of the organization (emailed). */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { dataOf } from '#api/responses/common';
import { PartnerOrgMember } from '#api/responses/partner';
import { orgPath } from '#api/schemas/partner';
import { inviteSeat, ownedOrg } from '#use-cases/partner-orgs';

export default defineOperation({
  operationId: 'invitePartnerOrgUser',
  method: 'POST',
  path: '/api/v1/orgs/{orgId}/users',
  access: 'partner',
  summary: 'Invites a user to a seat of the organization.',
  designedHere: true,
  uses: ['messages:queue'],
  schemas: () => ({
    path: orgPath(),
    body: z.object({
      email: z.string().check(z.trim(), z.minLength(1), z.maxLength(320)),
      firstName: z.nullable(z.string().check(z.trim(), z.maxLength(100))),
      lastName: z.nullable(z.string().check(z.trim(), z.maxLength(100))),
      role: z.nullable(z.string().check(z.trim(), z.maxLength(50))),
    }),
  }),
  response: () => dataOf(PartnerOrgMember),
  example: { body: { email: 'agent@lonestar.example', firstName: 'Ravi', lastName: 'Shah', role: 'agent' } },
  handler: async ({ path, body }, { principal, now }) => ({ body: { data: await inviteSeat(await ownedOrg(principal.orgId, path.orgId), body, now) } }),
});
