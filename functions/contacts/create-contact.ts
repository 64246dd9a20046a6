/** `POST /api/v1/contacts`: creates a contact (CreateContactRequest designed here; body optional). */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { contactFields } from '#api/schemas/contacts';

export default plannedOperation({
  operationId: 'createContact',
  method: 'POST',
  path: '/api/v1/contacts',
  access: 'actions',
  summary: 'Creates a contact (CreateContactRequest designed here; body optional).',
  designedHere: true,
  schemas: () => ({ body: z.optional(z.object(contactFields())) }),
  planned: 'issue #9 (messaging and contacts)',
});
