/** `GET /api/v1/conversations/{threadId}/messages`: messages of one conversation thread. */
import { plannedOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { limitQuery } from '#api/schemas/messaging';

export default plannedOperation({
  operationId: 'listConversationMessages',
  method: 'GET',
  path: '/api/v1/conversations/{threadId}/messages',
  access: 'read',
  summary: 'Messages of one conversation thread.',
  schemas: () => ({ path: uuidPath('threadId'), query: limitQuery() }),
  planned: 'issue #9 (messaging and contacts)',
});
