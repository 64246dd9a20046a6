/**
 * `GET /api/v1/webhooks/{id}/deliveries`: recent attempts, newest first (`limit` default 25, `offset`),
 * each with status code, latency (ms), error, attempt number and next retry time.
 */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { int32, uuidPath } from '#api/params';
import { getWebhook } from '#db/webhooks';
import { listAttempts } from '#db/webhook-deliveries';
import { DeliveryAttempt } from '#api/responses/webhooks';

export default defineOperation({
  operationId: 'listWebhookDeliveries',
  method: 'GET',
  path: '/api/v1/webhooks/{id}/deliveries',
  access: 'read',
  summary: 'Recent delivery attempts with status, latency, error and next retry.',
  response: () => z.object({ data: z.array(DeliveryAttempt), limit: z.int(), offset: z.int() }),
  schemas: () => ({
    path: uuidPath('id'),
    query: z.object({
      limit: z.optional(int32({ min: 1, max: 100 })),
      offset: z.optional(int32({ min: 0 })),
    }),
  }),
  example: { query: { limit: '10' } },
  handler: async ({ path, query }, { principal }) => {
    await getWebhook(principal.orgId, path.id);
    const limit = query.limit ?? 25;
    const offset = query.offset ?? 0;
    return { body: { data: await listAttempts(principal.orgId, path.id, limit, offset), limit, offset } };
  },
});
