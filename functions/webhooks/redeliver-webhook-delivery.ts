/**
 * `POST /api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver` (designed here): re-sends one delivery as a new
 * delivery of the same event and body, signed anew, with a fresh attempt count; it links the one it re-sends
 * (`redeliveryOf`). 422 naming `id` while the subscription is paused (by its circuit breaker or by hand), and
 * naming `deliveryId` for an internal event or a body no longer kept (shared/use-cases/redeliver-webhook.ts).
 */
import { defineOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { dataOf } from '#api/responses/common';
import { Redelivery } from '#api/responses/webhooks';
import { redeliverOne } from '#use-cases/redeliver-webhook';

export default defineOperation({
  operationId: 'redeliverWebhookDelivery',
  method: 'POST',
  path: '/api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver',
  access: 'actions',
  designedHere: true,
  summary: 'Re-sends one delivery: same event id and body, signed anew, fresh attempt count.',
  response: () => dataOf(Redelivery),
  schemas: () => ({ path: uuidPath('id', 'deliveryId') }),
  handler: async ({ path }, { principal, now }) => ({ body: { data: await redeliverOne(principal, path.id, path.deliveryId, now) } }),
});
