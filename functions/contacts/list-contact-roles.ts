/** `GET /api/v1/contact-roles`: the contact roles of the organization, built-in and custom. */
import { plannedOperation } from '#api/operation';

export default plannedOperation({
  operationId: 'listContactRoles',
  method: 'GET',
  path: '/api/v1/contact-roles',
  access: 'read',
  summary: 'The contact roles of the organization, built-in and custom.',
  designedHere: true,
  planned: 'issue #9 (messaging and contacts)',
});
