/** `POST /api/v1/transactions/{transactionId}/checklist`: applies a checklist template to the deal. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { uuid, uuidPath } from '#api/params';

export default plannedOperation({
  operationId: 'applyChecklistTemplate',
  method: 'POST',
  path: '/api/v1/transactions/{transactionId}/checklist',
  access: 'draft',
  summary: 'Applies a checklist template to the deal.',
  schemas: () => ({
    path: uuidPath('transactionId'),
    body: z.object({
      templateId: uuid(),
      replaceExisting: z.nullable(z.boolean()),
      scope: z.nullable(z.string().check(z.maxLength(100))),
    }),
  }),
  planned: 'issue #11 (deal workspace)',
});
