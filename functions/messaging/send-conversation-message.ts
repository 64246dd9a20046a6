/** `POST /api/v1/conversations/{threadId}/messages`: sends a message into an existing conversation thread. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { text } from '#api/schemas/messaging';

export default plannedOperation({
  operationId: 'sendConversationMessage',
  method: 'POST',
  path: '/api/v1/conversations/{threadId}/messages',
  access: 'actions',
  idempotent: true,
  summary: 'Sends a message into an existing conversation thread.',
  schemas: () => ({
    path: uuidPath('threadId'),
    body: z.object({ messageContent: z.nullable(text()), forceOverride: z.boolean() }),
  }),
  planned: 'issue #9 (messaging and contacts)',
});
