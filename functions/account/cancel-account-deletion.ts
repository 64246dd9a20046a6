/** `POST /api/v1/account/deletion/cancel`: cancels a scheduled workspace deletion (owner only). */
import { plannedOperation } from '#api/operation';

export default plannedOperation({
  operationId: 'cancelAccountDeletion',
  method: 'POST',
  path: '/api/v1/account/deletion/cancel',
  access: 'actions',
  summary: 'Cancels a scheduled workspace deletion (owner only).',
  planned: 'issue #13 (workspace lifecycle)',
});
