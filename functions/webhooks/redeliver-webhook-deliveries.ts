/**
 * `POST /api/v1/webhooks/{id}/redeliver` (designed here): re-sends, oldest first, the deliveries whose last attempt
 * between `since` and `until` ended `failed` (default) or `dropped` and that were not redelivered already; at most
 * `limit` (≤ 100) per call. `truncated: true` and a `cursor` mean more may follow: send the same range with the
 * cursor. Honours `Idempotency-Key`. 422 naming `id` while the subscription is paused
 * (shared/use-cases/redeliver-webhook.ts).
 */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { dateTime, uuidPath } from '#api/params';
import { dataOf } from '#api/responses/common';
import { Redelivery } from '#api/responses/webhooks';
import { MAX_BULK, redeliverFailed } from '#use-cases/redeliver-webhook';

export default defineOperation({
  operationId: 'redeliverWebhookDeliveries',
  method: 'POST',
  path: '/api/v1/webhooks/{id}/redeliver',
  access: 'actions',
  idempotent: true,
  designedHere: true,
  summary: 'Re-sends the failed deliveries of a time range, at most 100 per call, with a cursor to continue.',
  response: () =>
    dataOf(
      z.object({
        redelivered: z.array(Redelivery),
        count: z.int(),
        skipped: z.int(),
        truncated: z.boolean(),
        cursor: z.nullable(z.string()),
      }),
    ),
  schemas: () => ({
    path: uuidPath('id'),
    body: z.object({
      since: dateTime(),
      until: z.optional(dateTime()),
      status: z.optional(z.enum(['failed', 'dropped'])),
      limit: z.optional(z.int().check(z.minimum(1), z.maximum(MAX_BULK))),
      cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(500))),
    }),
  }),
  example: { body: { since: '2026-01-01T00:00:00Z', status: 'failed', limit: 100 } },
  handler: async ({ path, body }, { principal, now }) => {
    const r = await redeliverFailed(principal, path.id, { since: new Date(body.since), until: body.until ? new Date(body.until) : now, status: body.status ?? 'failed', limit: body.limit ?? MAX_BULK, cursor: body.cursor }, now);
    return { body: { data: { ...r, count: r.redelivered.length } } };
  },
});
