/** `POST /api/v1/proposals/{id}/reject`: rejects a proposal with an optional reason. */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { dataOf } from '#api/responses/common';
import { Proposal } from '#api/responses/proposals';
import { rejectProposal } from '#use-cases/proposals';

export default defineOperation({
  operationId: 'rejectProposal',
  method: 'POST',
  path: '/api/v1/proposals/{id}/reject',
  access: 'actions',
  summary: 'Rejects a pending proposal, recording the reason; the deal is untouched.',
  response: () => dataOf(Proposal),
  schemas: () => ({ path: uuidPath('id'), body: z.object({ reason: z.nullish(z.string().check(z.maxLength(2000))) }) }),
  example: { body: { reason: 'The amendment was not signed by the seller.' } },
  handler: async ({ path, body }, { principal, now }) => ({ body: { data: await rejectProposal(principal, path.id, body.reason ?? null, now) } }),
});
