/**
 * `POST /api/v1/account/deletion/cancel`: cancels a scheduled workspace deletion (owner only): unfreezes the
 * workspace and deletes the purge schedule; `cancelled: false` when nothing was scheduled. Callable while frozen.
 */
import { defineOperation } from '#api/operation';
import { deletionCancelResponse } from '#api/responses/account';
import { cancelDeletion } from '#use-cases/workspace-deletion';

export default defineOperation({
  operationId: 'cancelAccountDeletion',
  method: 'POST',
  path: '/api/v1/account/deletion/cancel',
  access: 'actions',
  summary: 'Cancels a scheduled workspace deletion (owner only).',
  whileFrozen: true,
  response: deletionCancelResponse,
  handler: async (_input, { principal }) => ({ body: { data: await cancelDeletion(principal) } }),
});
