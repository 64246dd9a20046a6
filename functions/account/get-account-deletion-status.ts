/** `GET /api/v1/account/deletion/status`: whether deletion is scheduled, when the purge falls due, the grace length and isOwner (any reader). */
import { defineOperation } from '#api/operation';
import { DeletionStatus } from '#api/responses/account';
import { dataOf } from '#api/responses/common';
import { deletionStatus } from '#use-cases/workspace-deletion';

export default defineOperation({
  operationId: 'getAccountDeletionStatus',
  method: 'GET',
  path: '/api/v1/account/deletion/status',
  access: 'read',
  summary: 'Whether deletion is scheduled, when the purge falls due, and isOwner.',
  response: () => dataOf(DeletionStatus),
  handler: async (_input, { principal }) => ({ body: { data: await deletionStatus(principal) } }),
});
