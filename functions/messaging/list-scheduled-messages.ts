/** `GET /api/v1/transactions/{transactionId}/scheduled-messages`: the deal's active scheduled messages, soonest first. */
import { defineOperation } from '#api/operation';
import { ScheduledMessage } from '#api/responses/messaging';
import { listOf } from '#api/responses/common';
import { uuidPath } from '#api/params';
import { listActiveScheduledMessages, scheduledMessageView } from '#db/scheduled-messages';
import { getTransactionHead } from '#db/transactions';

export default defineOperation({
  operationId: 'listScheduledMessages',
  method: 'GET',
  path: '/api/v1/transactions/{transactionId}/scheduled-messages',
  access: 'read',
  summary: "The deal's active scheduled messages.",
  schemas: () => ({ path: uuidPath('transactionId') }),
  response: () => listOf(ScheduledMessage),
  /** `{data: scheduledMessage[]}`: those still `pending` (or being sent), soonest first; sent and cancelled ones leave the list. */
  handler: async ({ path }, { principal }) => {
    const deal = await getTransactionHead(principal.orgId, path.transactionId);
    return { body: { data: (await listActiveScheduledMessages(principal.orgId, deal.id)).map(scheduledMessageView) } };
  },
});
