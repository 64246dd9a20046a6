/** `POST /api/v1/proposals/{id}/approve`: approves a proposal and applies it. */
import { plannedOperation } from '#api/operation';
import { uuidPath } from '#api/params';

export default plannedOperation({
  operationId: 'approveProposal',
  method: 'POST',
  path: '/api/v1/proposals/{id}/approve',
  access: 'actions',
  summary: 'Approves a proposal and applies it.',
  schemas: () => ({ path: uuidPath('id') }),
  planned: 'issue #11 (deal workspace)',
});
