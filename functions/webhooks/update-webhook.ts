/** `PUT /api/v1/webhooks/{id}`: replaces a subscription; `isActive: true` re-enables a paused one and resets its circuit breaker. */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { int32, uuidPath } from '#api/params';
import { description, events, headers, name, url } from '#api/schemas/webhooks';
import { getWebhook as get, replaceWebhook, toPublicWebhook } from '#db/webhooks';
import { assertValidSubscription } from '#events/subscription-rules';
import { dataOf } from '#api/responses/common';
import { WebhookSubscription } from '#api/responses/webhooks';

export default defineOperation({
  operationId: 'updateWebhook',
  method: 'PUT',
  path: '/api/v1/webhooks/{id}',
  access: 'actions',
  summary: 'Replaces a subscription; isActive re-enables one paused by the circuit breaker.',
  response: () => dataOf(WebhookSubscription),
  schemas: () => ({
    path: uuidPath('id'),
    body: z.object({
      name: name(),
      url: url(),
      events: events(),
      description: z.optional(description()),
      headers: z.optional(headers()),
      isActive: z.optional(z.boolean()),
      circuitBreakerEnabled: z.optional(z.boolean()),
      timeoutSeconds: z.optional(int32({ min: 1, max: 30 })),
    }),
  }),
  example: { body: { name: 'CRM sync', url: 'https://crm.example.com/hooks/tcs', events: ['*'], isActive: true } },
  handler: async ({ path, body }, { principal, now }) => {
    await get(principal.orgId, path.id);
    await assertValidSubscription(body);
    return { body: { data: toPublicWebhook(await replaceWebhook(principal.orgId, path.id, body, now)) } };
  },
});
