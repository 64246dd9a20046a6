/** `DELETE /api/v1/scheduled-messages/{messageId}`: cancels a pending scheduled message. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { uuid } from '#api/params';

export default plannedOperation({
  operationId: 'deleteScheduledMessage',
  method: 'DELETE',
  path: '/api/v1/scheduled-messages/{messageId}',
  access: 'actions',
  idempotent: true,
  summary: 'Cancels a pending scheduled message.',
  schemas: () => ({ path: z.object({ messageId: uuid() }) }),
  planned: 'issue #9 (messaging and contacts)',
});
