/**
 * `GET /api/v1/webhooks/{id}/deliveries`: recent attempts, newest first (`limit` default 25, `offset`),
 * each with status code, latency (ms), error, attempt number and next retry time.
 * `POST /api/v1/webhooks/{id}/test`: commits a `webhook.test` event for this subscription only; it is
 * delivered through the same outbox → fan-out → queue path as every event.
 */
import type { OperationHandler } from '#http/context';
import { getWebhook } from '#db/webhooks';
import { listAttempts } from '#db/webhook-deliveries';
import { transactWrite } from '#db/transact';
import { outboxPut } from '#events/outbox';

export const listWebhookDeliveries: OperationHandler = async ({ path, query }, { principal }) => {
  await getWebhook(principal.orgId, path.id);
  const limit = query.limit ?? 25;
  const offset = query.offset ?? 0;
  return { body: { data: await listAttempts(principal.orgId, path.id, limit, offset), limit, offset } };
};

export const testWebhook: OperationHandler = async ({ path }, { principal, now }) => {
  const s = await getWebhook(principal.orgId, path.id);
  const put = outboxPut({ orgId: principal.orgId, userId: principal.userId }, 'webhook.test', { subscriptionId: s.id, message: 'Test delivery from the Transaction-Coordination Service.' }, now);
  await transactWrite([put]);
  return { body: { data: { subscriptionId: s.id, eventId: put.Put.Item.envelope.eventId, eventType: 'webhook.test', queued: true } } };
};
