/** `GET /api/v1/conversations`: the organization's SMS conversations, most recent activity first. */
import { defineOperation } from '#api/operation';
import { Conversation } from '#api/responses/messaging';
import { listOf } from '#api/responses/common';
import { limitQuery } from '#api/schemas/messaging';
import { conversationView, listConversations } from '#db/conversations';

/** Conversations listed when `limit` is not given. */
const DEFAULT_LIMIT = 25;

export default defineOperation({
  operationId: 'listConversations',
  method: 'GET',
  path: '/api/v1/conversations',
  access: 'read',
  summary: 'Recent SMS conversation threads of the organization.',
  schemas: () => ({ query: limitQuery() }),
  example: { query: { limit: '10' } },
  response: () => listOf(Conversation),
  /** `{data: conversation[]}` (`limit` 1–100, default 25). */
  handler: async ({ query }, { principal }) => ({
    body: { data: (await listConversations(principal.orgId, query.limit ?? DEFAULT_LIMIT)).map(conversationView) },
  }),
});
