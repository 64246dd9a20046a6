/** `PUT /api/v1/proposals/{id}/payload`: edits the proposed value before approval. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { uuidPath } from '#api/params';

export default plannedOperation({
  operationId: 'updateProposalPayload',
  method: 'PUT',
  path: '/api/v1/proposals/{id}/payload',
  access: 'actions',
  summary: 'Edits the proposed value before approval.',
  schemas: () => ({ path: uuidPath('id'), body: z.object({ parameters: z.json() }) }),
  planned: 'issue #11 (deal workspace)',
});
