/** `POST /api/v1/orgs/{orgId}/users`: invites a user to a seat of the organization. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { orgPath } from '#api/schemas/partner';

export default plannedOperation({
  operationId: 'invitePartnerOrgUser',
  method: 'POST',
  path: '/api/v1/orgs/{orgId}/users',
  access: 'partner',
  summary: 'Invites a user to a seat of the organization.',
  schemas: () => ({
    path: orgPath(),
    body: z.object({
      email: z.string().check(z.trim(), z.minLength(1), z.maxLength(320)),
      firstName: z.nullable(z.string().check(z.trim(), z.maxLength(100))),
      lastName: z.nullable(z.string().check(z.trim(), z.maxLength(100))),
      role: z.nullable(z.string().check(z.trim(), z.maxLength(50))),
    }),
  }),
  planned: 'issue #10 (partner tier)',
});
