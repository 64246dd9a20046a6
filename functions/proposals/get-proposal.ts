/** `GET /api/v1/proposals/{id}`: one proposal with its evidence. */
import { plannedOperation } from '#api/operation';
import { uuidPath } from '#api/params';

export default plannedOperation({
  operationId: 'getProposal',
  method: 'GET',
  path: '/api/v1/proposals/{id}',
  access: 'read',
  summary: 'One proposal with its evidence.',
  schemas: () => ({ path: uuidPath('id') }),
  planned: 'issue #11 (deal workspace)',
});
