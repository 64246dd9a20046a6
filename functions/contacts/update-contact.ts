/** `PATCH /api/v1/contacts/{contactId}`: changes a contact's fields; omitted fields are kept, null clears. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { contactFields } from '#api/schemas/contacts';

export default plannedOperation({
  operationId: 'updateContact',
  method: 'PATCH',
  path: '/api/v1/contacts/{contactId}',
  access: 'actions',
  summary: "Changes a contact's fields; omitted fields are kept, null clears.",
  designedHere: true,
  schemas: () => ({ path: uuidPath('contactId'), body: z.object(contactFields()) }),
  planned: 'issue #9 (messaging and contacts)',
});
