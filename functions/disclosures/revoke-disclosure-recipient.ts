/** `DELETE /api/v1/disclosure-packages/{packageId}/recipients/{recipientId}`: revokes a recipient's access (a no-op when already revoked). */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { revokeRecipientResponse } from '#api/responses/pages';
import { recipientStatus, revokeDisclosureRecipient } from '#use-cases/disclosures';
import { uuid } from '#api/params';

export default defineOperation({
  operationId: 'revokeDisclosureRecipient',
  method: 'DELETE',
  path: '/api/v1/disclosure-packages/{packageId}/recipients/{recipientId}',
  access: 'actions',
  summary: "Revokes a recipient's access (a no-op when already revoked).",
  schemas: () => ({ path: z.object({ packageId: uuid(), recipientId: uuid() }) }),
  response: revokeRecipientResponse,
  /** `{data: DisclosureRecipient, alreadyRevoked}`; the recipient's link answers 404 from now on. */
  handler: async ({ path }, { principal, now }) => {
    const { recipient, alreadyRevoked } = await revokeDisclosureRecipient(principal, path.packageId, path.recipientId, now);
    return { body: { data: { ...recipient, status: recipientStatus(recipient, now) }, alreadyRevoked } };
  },
});
