/** `POST /api/v1/conversations/{threadId}/documents`: sends a secure document link into an existing conversation. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { int32, uuid, uuidPath } from '#api/params';
import { text } from '#api/schemas/messaging';

export default plannedOperation({
  operationId: 'shareConversationDocument',
  method: 'POST',
  path: '/api/v1/conversations/{threadId}/documents',
  access: 'actions',
  idempotent: true,
  summary: 'Sends a secure document link into an existing conversation.',
  schemas: () => ({
    path: uuidPath('threadId'),
    body: z.object({
      documentId: z.nullable(uuid()),
      expirationHours: z.nullable(int32({ min: 1 })),
      message: z.nullable(text()),
    }),
  }),
  planned: 'issue #9 (messaging and contacts)',
});
