/** `GET /api/v1/conversations/{threadId}/messages`: the latest messages of one conversation, oldest first. */
import { defineOperation } from '#api/operation';
import { conversationMessagesResponse } from '#api/responses/messaging';
import { uuidPath } from '#api/params';
import { limitQuery } from '#api/schemas/messaging';
import { listThreadMessages, messageView } from '#db/communications';
import { conversationView, getConversation } from '#db/conversations';
import { findSmsOptOut } from '#db/consent';

/** Messages listed when `limit` is not given. */
const DEFAULT_LIMIT = 50;

export default defineOperation({
  operationId: 'listConversationMessages',
  method: 'GET',
  path: '/api/v1/conversations/{threadId}/messages',
  access: 'read',
  summary: 'Messages of one conversation thread.',
  schemas: () => ({ path: uuidPath('threadId'), query: limitQuery(200) }),
  example: { query: { limit: '50' } },
  response: conversationMessagesResponse,
  /** `{data: message[], conversation}`: the newest `limit` (1–200, default 50) in time order; `conversation.optedOut` tells whether the number texted STOP. */
  handler: async ({ path, query }, { principal }) => {
    const conversation = await getConversation(principal.orgId, path.threadId);
    const [messages, optOut] = await Promise.all([listThreadMessages(principal.orgId, conversation.id, query.limit ?? DEFAULT_LIMIT), findSmsOptOut(conversation.phone)]);
    return { body: { data: messages.map(messageView), conversation: { ...conversationView(conversation), optedOut: optOut !== undefined } } };
  },
});
