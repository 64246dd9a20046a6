/**
 * `DELETE /api/v1/scheduled-messages/{messageId}`: cancels a pending scheduled message and deletes its schedule (spec
 * "States and transitions": pending → cancelled; honours `Idempotency-Key`). A message no longer pending (sending,
 * sent, failed, or cancelled already) is a 409.
 */
import { defineOperation } from '#api/operation';
import { ScheduledMessage } from '#api/responses/messaging';
import { dataOf } from '#api/responses/common';
import { uuidPath } from '#api/params';
import { scheduledMessageView } from '#db/scheduled-messages';
import { cancelScheduledEmail } from '#use-cases/messaging/scheduled-email';

export default defineOperation({
  operationId: 'deleteScheduledMessage',
  method: 'DELETE',
  path: '/api/v1/scheduled-messages/{messageId}',
  access: 'actions',
  idempotent: true,
  summary: 'Cancels a pending scheduled message.',
  schemas: () => ({ path: uuidPath('messageId') }),
  response: () => dataOf(ScheduledMessage),
  /** `{data: scheduledMessage}`, status `cancelled`. */
  handler: async ({ path }, { principal, now }) => ({
    body: { data: scheduledMessageView(await cancelScheduledEmail(principal, path.messageId, now)) },
  }),
});
