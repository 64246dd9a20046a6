/** `PUT /api/v1/proposals/{id}/payload`: edits the proposed value before approval. */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { dataOf } from '#api/responses/common';
import { Proposal } from '#api/responses/proposals';
import { editProposal } from '#use-cases/proposals';

export default defineOperation({
  operationId: 'updateProposalPayload',
  method: 'PUT',
  path: '/api/v1/proposals/{id}/payload',
  access: 'actions',
  summary: 'Edits a pending proposal\'s values before approval: parameters = { keyDates: [{ keyDateType, dateValue }] }, types among those proposed.',
  response: () => dataOf(Proposal),
  schemas: () => ({ path: uuidPath('id'), body: z.object({ parameters: z.json() }) }),
  example: { body: { parameters: { keyDates: [{ keyDateType: 'ClosingDate', dateValue: '2027-01-22' }] } } },
  handler: async ({ path, body }, { principal, now }) => ({ body: { data: await editProposal(principal, path.id, body.parameters, now) } }),
});
