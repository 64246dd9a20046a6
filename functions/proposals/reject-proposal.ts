/** `POST /api/v1/proposals/{id}/reject`: rejects a proposal with an optional reason. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { uuidPath } from '#api/params';

export default plannedOperation({
  operationId: 'rejectProposal',
  method: 'POST',
  path: '/api/v1/proposals/{id}/reject',
  access: 'actions',
  summary: 'Rejects a proposal with an optional reason.',
  schemas: () => ({ path: uuidPath('id'), body: z.object({ reason: z.nullable(z.string().check(z.maxLength(2000))) }) }),
  planned: 'issue #11 (deal workspace)',
});
