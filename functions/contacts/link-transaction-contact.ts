/** `POST /api/v1/transactions/{transactionId}/contacts`: links an existing contact to the deal with a role. */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { uuid } from '#api/params';
import { linkContactToDeal } from '#use-cases/contacts-link';
import { TransactionContact } from '#api/responses/deals';

export default defineOperation({
  operationId: 'linkTransactionContact',
  method: 'POST',
  path: '/api/v1/transactions/{transactionId}/contacts',
  access: 'actions',
  summary: 'Links an existing contact to the deal with a role (exact name); repeating a link changes nothing.',
  response: () => z.object({ data: TransactionContact, changed: z.boolean() }),
  schemas: () => ({
    path: z.object({ transactionId: uuid() }),
    // Nullable as the spec types them; a missing contactId or role is refused by the use case (422, "is required").
    body: z.object({
      contactId: z.nullish(uuid()),
      role: z.nullish(z.string().check(z.maxLength(100))),
      isPrimary: z.nullish(z.boolean()),
    }),
  }),
  example: { body: { contactId: '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b', role: "Buyer's Agent", isPrimary: true } },
  handler: async ({ path, body }, { principal, now }) => {
    const { link, changed } = await linkContactToDeal(principal, path.transactionId, body, now);
    return { body: { data: link, changed } };
  },
});
