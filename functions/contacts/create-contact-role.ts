/** `POST /api/v1/contact-roles`: creates a custom contact role (CreateContactRoleRequest designed here). */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { createContactRole } from '#use-cases/contacts-roles';
import { dataOf } from '#api/responses/common';
import { ContactRole } from '#api/responses/contacts';

export default defineOperation({
  operationId: 'createContactRole',
  method: 'POST',
  path: '/api/v1/contact-roles',
  access: 'actions',
  summary: 'Creates a custom contact role; names are unique case-insensitively, built-in names included.',
  response: () => dataOf(ContactRole),
  designedHere: true,
  schemas: () => ({
    body: z.object({
      name: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
      description: z.nullish(z.string().check(z.maxLength(1000))),
    }),
  }),
  example: { body: { name: 'Lender', description: "Loan officer at the buyer's lender" } },
  handler: async ({ body }, { principal, now }) => ({ body: { data: await createContactRole(principal, body, now) } }),
});
