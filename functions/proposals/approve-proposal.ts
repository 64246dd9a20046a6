/** `POST /api/v1/proposals/{id}/approve`: approves a proposal and applies it. */
import { defineOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { dataOf } from '#api/responses/common';
import { Proposal } from '#api/responses/proposals';
import { approveProposal } from '#use-cases/proposals';

export default defineOperation({
  operationId: 'approveProposal',
  method: 'POST',
  path: '/api/v1/proposals/{id}/approve',
  access: 'actions',
  summary: 'Approves a pending proposal and applies it as a manual key-date write would (linked tasks move, key_date.updated); 422 when stale or already decided.',
  response: () => dataOf(Proposal),
  schemas: () => ({ path: uuidPath('id') }),
  handler: async ({ path }, { principal, now }) => ({ body: { data: await approveProposal(principal, path.id, now) } }),
});
