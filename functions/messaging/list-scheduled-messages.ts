/**
 * `GET /api/v1/transactions/{transactionId}/scheduled-messages`: the deal's active scheduled messages, soonest first
 * (the spec's list). `status` (an addition, issue 25) lists another part of their history instead: `pending` (the
 * default: pending or being sent), `sent`, `cancelled` or `failed`.
 */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { ScheduledMessage } from '#api/responses/messaging';
import { listOf } from '#api/responses/common';
import { uuid } from '#api/params';
import { listScheduledMessages, scheduledMessageView } from '#db/scheduled-messages';
import { getTransactionHead } from '#db/transactions';

export default defineOperation({
  operationId: 'listScheduledMessages',
  method: 'GET',
  path: '/api/v1/transactions/{transactionId}/scheduled-messages',
  access: 'read',
  summary: "The deal's active scheduled messages; `status` lists sent, cancelled or failed ones instead.",
  schemas: () => ({
    path: z.object({ transactionId: uuid() }),
    query: z.object({ status: z.optional(z.enum(['pending', 'sent', 'cancelled', 'failed'])) }),
  }),
  example: { query: { status: 'sent' } },
  response: () => listOf(ScheduledMessage),
  /** `{data: scheduledMessage[]}`: those in `status` (default `pending`, which includes messages being sent), soonest first. */
  handler: async ({ path, query }, { principal }) => {
    const deal = await getTransactionHead(principal.orgId, path.transactionId);
    return { body: { data: (await listScheduledMessages(principal.orgId, deal.id, query.status)).map(scheduledMessageView) } };
  },
});
