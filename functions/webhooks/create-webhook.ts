/** `POST /api/v1/webhooks`: creates a subscription after checking its events, URL and headers; the response shows the full signing secret once. */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { description, events, headers, name, url } from '#api/schemas/webhooks';
import { createWebhook as create, toPublicWebhook } from '#db/webhooks';
import { assertValidSubscription } from '#events/subscription-rules';
import { dataOf } from '#api/responses/common';
import { WebhookSubscriptionWithSecret } from '#api/responses/webhooks';

export default defineOperation({
  operationId: 'createWebhook',
  method: 'POST',
  path: '/api/v1/webhooks',
  access: 'actions',
  summary: 'Creates a subscription; the response shows the full signing secret once.',
  response: () => dataOf(WebhookSubscriptionWithSecret),
  schemas: () => ({
    body: z.object({
      name: name(),
      url: url(),
      events: events(),
      description: z.optional(description()),
      headers: z.optional(headers()),
    }),
  }),
  example: { body: { name: 'CRM sync', url: 'https://crm.example.com/hooks/tcs', events: ['transaction.created', 'transaction.status_changed'] } },
  handler: async ({ body }, { principal, now }) => {
    await assertValidSubscription(body);
    const s = await create(principal.orgId, body, now);
    return { body: { data: { ...toPublicWebhook(s), secret: s.secret } } };
  },
});
