/** `GET /api/v1/transactions/{transactionId}/merge-fields`: the deal's template merge fields and their values. */
import { defineOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { listOf } from '#api/responses/common';
import { MergeField } from '#api/responses/templates';
import { dealMergeFields } from '#use-cases/email-templates';

export default defineOperation({
  operationId: 'getTransactionMergeFields',
  method: 'GET',
  path: '/api/v1/transactions/{transactionId}/merge-fields',
  access: 'read',
  summary: "The deal's template merge fields and their values.",
  designedHere: true,
  schemas: () => ({ path: uuidPath('transactionId') }),
  response: () => listOf(MergeField),
  /** `{data: MergeField[]}`: property, transaction, organization, client and parties by role, key dates, reminder fields (shared/domain/merge-fields.ts). */
  handler: async ({ path }, { principal }) => ({ body: { data: await dealMergeFields(principal.orgId, path.transactionId) } }),
});
