/** `POST /api/v1/webhooks/{id}/regenerate-secret`: rotates the signing secret; the response shows the new one in full, once. */
import { defineOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { rotateWebhookSecret, toPublicWebhook } from '#db/webhooks';
import { dataOf } from '#api/responses/common';
import { WebhookSubscriptionWithSecret } from '#api/responses/webhooks';

export default defineOperation({
  operationId: 'regenerateWebhookSecret',
  method: 'POST',
  path: '/api/v1/webhooks/{id}/regenerate-secret',
  access: 'actions',
  summary: 'Rotates the signing secret and returns the new one once.',
  response: () => dataOf(WebhookSubscriptionWithSecret),
  schemas: () => ({ path: uuidPath('id') }),
  handler: async ({ path }, { principal, now }) => {
    const s = await rotateWebhookSecret(principal.orgId, path.id, now);
    return { body: { data: { ...toPublicWebhook(s), secret: s.secret } } };
  },
});
