/** `GET /api/v1/webhooks`: active subscriptions, or all with `includeInactive=true`; secrets masked. */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { boolParam } from '#api/params';
import { listWebhooks as list, toPublicWebhook } from '#db/webhooks';
import { listOf } from '#api/responses/common';
import { WebhookSubscription } from '#api/responses/webhooks';

export default defineOperation({
  operationId: 'listWebhooks',
  method: 'GET',
  path: '/api/v1/webhooks',
  access: 'read',
  summary: "The organization's webhook subscriptions (secrets masked).",
  response: () => listOf(WebhookSubscription),
  schemas: () => ({ query: z.object({ includeInactive: z.optional(boolParam()) }) }),
  example: { query: { includeInactive: 'true' } },
  handler: async ({ query }, { principal }) => {
    const subs = await list(principal.orgId);
    return { body: { data: subs.filter((s) => query.includeInactive || s.isActive).map(toPublicWebhook) } };
  },
});
