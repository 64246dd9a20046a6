/** `GET /api/v1/contact-roles`: the contact roles of the organization, built-in and custom. */
import { defineOperation } from '#api/operation';
import { listContactRoles } from '#use-cases/contacts-roles';
import { listOf } from '#api/responses/common';
import { ContactRole } from '#api/responses/contacts';

export default defineOperation({
  operationId: 'listContactRoles',
  method: 'GET',
  path: '/api/v1/contact-roles',
  access: 'read',
  summary: 'The contact roles of the organization: built-in roles, then custom roles by name.',
  response: () => listOf(ContactRole),
  designedHere: true,
  handler: async (_input, { principal }) => ({ body: { data: await listContactRoles(principal.orgId) } }),
});
