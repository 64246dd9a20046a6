/** `POST /api/v1/account/export/request`: starts a workspace export delivered by email (owner only). */
import { plannedOperation } from '#api/operation';

export default plannedOperation({
  operationId: 'requestAccountExport',
  method: 'POST',
  path: '/api/v1/account/export/request',
  access: 'actions',
  summary: 'Starts a workspace export delivered by email (owner only).',
  planned: 'issue #13 (workspace lifecycle)',
});
