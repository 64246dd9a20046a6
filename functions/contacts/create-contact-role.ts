/** `POST /api/v1/contact-roles`: creates a custom contact role (CreateContactRoleRequest designed here). */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';

export default plannedOperation({
  operationId: 'createContactRole',
  method: 'POST',
  path: '/api/v1/contact-roles',
  access: 'actions',
  summary: 'Creates a custom contact role (CreateContactRoleRequest designed here).',
  designedHere: true,
  schemas: () => ({
    body: z.object({
      name: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
      description: z.nullish(z.string().check(z.maxLength(1000))),
    }),
  }),
  planned: 'issue #9 (messaging and contacts)',
});
