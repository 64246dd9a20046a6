/** `POST /api/v1/transactions/{transactionId}/render-template`: renders a template against the deal as a preview; sends nothing. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { uuid, uuidPath } from '#api/params';

export default plannedOperation({
  operationId: 'renderTransactionTemplate',
  method: 'POST',
  path: '/api/v1/transactions/{transactionId}/render-template',
  access: 'read',
  summary: 'Renders a template against the deal as a preview; sends nothing.',
  schemas: () => ({
    path: uuidPath('transactionId'),
    body: z.object({ slug: z.nullable(z.string().check(z.maxLength(200))), templateId: z.nullable(uuid()) }),
  }),
  planned: 'issue #11 (deal workspace)',
});
