/** `DELETE /api/v1/disclosure-packages/{packageId}/recipients/{recipientId}`: revokes a recipient's access (a no-op when already revoked). */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { uuid } from '#api/params';

export default plannedOperation({
  operationId: 'revokeDisclosureRecipient',
  method: 'DELETE',
  path: '/api/v1/disclosure-packages/{packageId}/recipients/{recipientId}',
  access: 'actions',
  summary: "Revokes a recipient's access (a no-op when already revoked).",
  schemas: () => ({ path: z.object({ packageId: uuid(), recipientId: uuid() }) }),
  planned: 'issue #12 (pages for people outside the team)',
});
