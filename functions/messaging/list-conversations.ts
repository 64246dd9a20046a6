/** `GET /api/v1/conversations`: recent SMS conversation threads of the organization. */
import { plannedOperation } from '#api/operation';
import { limitQuery } from '#api/schemas/messaging';

export default plannedOperation({
  operationId: 'listConversations',
  method: 'GET',
  path: '/api/v1/conversations',
  access: 'read',
  summary: 'Recent SMS conversation threads of the organization.',
  schemas: () => ({ query: limitQuery() }),
  planned: 'issue #9 (messaging and contacts)',
});
