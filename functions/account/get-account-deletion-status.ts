/** `GET /api/v1/account/deletion/status`: whether deletion is scheduled, when the purge falls due, and isOwner. */
import { plannedOperation } from '#api/operation';

export default plannedOperation({
  operationId: 'getAccountDeletionStatus',
  method: 'GET',
  path: '/api/v1/account/deletion/status',
  access: 'read',
  summary: 'Whether deletion is scheduled, when the purge falls due, and isOwner.',
  planned: 'issue #13 (workspace lifecycle)',
});
