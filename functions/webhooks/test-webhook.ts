/**
 * `POST /api/v1/webhooks/{id}/test`: commits a `webhook.test` event for this subscription only; it is
 * delivered through the same outbox → fan-out → queue path as every event.
 */
import { defineOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { getWebhook } from '#db/webhooks';
import { transactWrite } from '#db/transact';
import { outboxPut } from '#events/outbox';
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
    const s = await getWebhook(principal.orgId, path.id);
    const put = outboxPut(
      principal,
      'webhook.test',
      { subscriptionId: s.id, message: 'Test delivery from the Transaction-Coordination Service.' },
      now,
    );
    await transactWrite([put]);
    return { body: { data: { subscriptionId: s.id, eventId: put.Put.Item.envelope.eventId, eventType: 'webhook.test', queued: true } } };
  },
});
