/** `GET /api/v1/account/export/latest`: state of the latest workspace export (owner only). */
import { plannedOperation } from '#api/operation';

export default plannedOperation({
  operationId: 'getLatestAccountExport',
  method: 'GET',
  path: '/api/v1/account/export/latest',
  access: 'read',
  summary: 'State of the latest workspace export (owner only).',
  planned: 'issue #13 (workspace lifecycle)',
});
