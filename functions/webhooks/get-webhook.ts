/** `GET /api/v1/webhooks/{id}`: one subscription, its secret masked to a prefix. */
import { defineOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { getWebhook as get, toPublicWebhook } from '#db/webhooks';
import { dataOf } from '#api/responses/common';
import { WebhookSubscription } from '#api/responses/webhooks';

export default defineOperation({
  operationId: 'getWebhook',
  method: 'GET',
  path: '/api/v1/webhooks/{id}',
  access: 'read',
  summary: 'One subscription with its secret masked.',
  response: () => dataOf(WebhookSubscription),
  schemas: () => ({ path: uuidPath('id') }),
  handler: async ({ path }, { principal }) => ({
    body: { data: toPublicWebhook(await get(principal.orgId, path.id)) },
  }),
});
