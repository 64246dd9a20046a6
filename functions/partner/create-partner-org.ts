/** `POST /api/v1/orgs`: provisions an organization with its owner. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';

export default plannedOperation({
  operationId: 'createPartnerOrg',
  method: 'POST',
  path: '/api/v1/orgs',
  access: 'partner',
  summary: 'Provisions an organization with its owner.',
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
  planned: 'issue #10 (partner tier)',
});
