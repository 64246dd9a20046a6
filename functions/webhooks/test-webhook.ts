/**
 * `POST /api/v1/webhooks/{id}/test`: commits a `webhook.test` event for this subscription only; it is
 * delivered through the same outbox → fan-out → queue path as every event.
 */
import { defineOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { sendTestEvent } from '#use-cases/test-webhook';
import * as z from '#api/zod';
import { dataOf, id } from '#api/responses/common';

export default defineOperation({
  operationId: 'testWebhook',
  method: 'POST',
  path: '/api/v1/webhooks/{id}/test',
  access: 'actions',
  summary: 'Sends a webhook.test delivery to the subscription.',
  response: () => dataOf(z.object({ subscriptionId: id(), eventId: z.string(), eventType: z.literal('webhook.test'), queued: z.literal(true) })),
  schemas: () => ({ path: uuidPath('id') }),
  handler: async ({ path }, { principal, now }) => {
    const { subscriptionId, eventId } = await sendTestEvent(principal, path.id, now);
    return { body: { data: { subscriptionId, eventId, eventType: 'webhook.test', queued: true } } };
  },
});
