/** `GET /api/v1/proposals/{id}`: one proposal with its evidence. */
import { defineOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { dataOf } from '#api/responses/common';
import { Proposal } from '#api/responses/proposals';
import { readProposal } from '#use-cases/proposals';

export default defineOperation({
  operationId: 'getProposal',
  method: 'GET',
  path: '/api/v1/proposals/{id}',
  access: 'read',
  summary: 'One proposal with its evidence (extraction citations or the message excerpt) and whether it is stale.',
  response: () => dataOf(Proposal),
  schemas: () => ({ path: uuidPath('id') }),
  handler: async ({ path }, { principal }) => ({ body: { data: await readProposal(principal.orgId, path.id) } }),
});
