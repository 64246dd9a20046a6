/** `POST /api/v1/contacts`: creates a contact and emits `contact.created` (CreateContactRequest designed here). */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { contactFields } from '#api/schemas/contacts';
import { CONTACT_TYPES } from '#domain/contact-fields';
import { createContact } from '#use-cases/contacts';
import { dataOf } from '#api/responses/common';
import { Contact } from '#api/responses/contacts';

export default defineOperation({
  operationId: 'createContact',
  method: 'POST',
  path: '/api/v1/contacts',
  access: 'actions',
  uses: ['phone-numbers'],
  summary: 'Creates a contact (one per email address in the organization) and emits contact.created.',
  response: () => dataOf(Contact),
  designedHere: true,
  schemas: () => ({ body: z.optional(z.object({ ...contactFields(), type: z.nullish(z.enum(CONTACT_TYPES)) })) }),
  example: { body: { firstName: 'Beatriz', lastName: 'Quillfeather', email: 'beatriz@hillcountry.example', phone: '(512) 555-0147', company: 'Hill Country Realty' } },
  handler: async ({ body }, { principal, now }) => ({ body: { data: await createContact(principal, body ?? {}, now) } }),
});
