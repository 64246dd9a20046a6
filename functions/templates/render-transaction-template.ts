/**
 * `POST /api/v1/transactions/{transactionId}/render-template`: renders a template against the deal as a preview;
 * sends nothing, stores nothing. Unknown merge fields and fields without a value stay as written and are listed.
 */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { uuid, uuidPath } from '#api/params';
import { dataOf } from '#api/responses/common';
import { RenderedTemplate } from '#api/responses/templates';
import { renderForDeal } from '#use-cases/template-preview';

export default defineOperation({
  operationId: 'renderTransactionTemplate',
  method: 'POST',
  path: '/api/v1/transactions/{transactionId}/render-template',
  access: 'read',
  summary: 'Renders a template against the deal as a preview; sends nothing.',
  designedHere: true,
  schemas: () => ({
    path: uuidPath('transactionId'),
    body: z.object({ slug: z.nullable(z.string().check(z.maxLength(200))), templateId: z.nullable(uuid()) }),
  }),
  example: { body: { slug: 'closing-reminder', templateId: null } },
  response: () => dataOf(RenderedTemplate),
  handler: async ({ path, body }, { principal }) => ({ body: { data: await renderForDeal(principal.orgId, path.transactionId, body) } }),
});
