/** `PATCH /api/v1/contacts/{contactId}`: changes a contact's fields; omitted fields are kept, null clears. */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { contactFields } from '#api/schemas/contacts';
import { CONTACT_TYPES } from '#domain/contact-fields';
import { updateContact } from '#use-cases/contacts';
import { dataOf } from '#api/responses/common';
import { Contact } from '#api/responses/contacts';

export default defineOperation({
  operationId: 'updateContact',
  method: 'PATCH',
  path: '/api/v1/contacts/{contactId}',
  access: 'actions',
  summary: "Changes a contact's fields (omitted kept, null clears); its deal links show the change.",
  response: () => dataOf(Contact),
  designedHere: true,
  // A changed email moves the contact's email claim (a `Delete` of the old one).
  uses: ['table:delete', 'phone-numbers'],
  schemas: () => ({ path: uuidPath('contactId'), body: z.object({ ...contactFields(), type: z.nullish(z.enum(CONTACT_TYPES)) }) }),
  example: { body: { phone: '+1 512 555 0199', company: 'Lone Star Realty' } },
  handler: async ({ path, body }, { principal, now }) => ({ body: { data: await updateContact(principal, path.contactId, body, now) } }),
});
