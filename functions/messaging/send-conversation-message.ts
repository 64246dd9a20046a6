/**
 * `POST /api/v1/conversations/{threadId}/messages`: sends an SMS into an existing conversation. An opted-out number
 * is never texted (409), `forceOverride` or not.
 */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { sentTextResponse } from '#api/responses/messaging';
import { uuidPath } from '#api/params';
import { smsText } from '#api/schemas/messaging';
import { replyInConversation, sentTextView } from '#use-cases/messaging/deal-sms';

export default defineOperation({
  operationId: 'sendConversationMessage',
  method: 'POST',
  path: '/api/v1/conversations/{threadId}/messages',
  access: 'actions',
  idempotent: true,
  summary: 'Sends a message into an existing conversation thread.',
  uses: ['messages:queue', 'phone-numbers'],
  schemas: () => ({
    path: uuidPath('threadId'),
    body: z.object({ messageContent: z.nullable(smsText()), forceOverride: z.boolean() }),
  }),
  example: { body: { messageContent: 'Thanks! See you at the walkthrough.', forceOverride: false } },
  response: sentTextResponse,
  /** `{data: {message, conversation}}`. */
  handler: async ({ path, body }, { principal, now }) => {
    return { body: { data: sentTextView(await replyInConversation(principal, path.threadId, body, now)) } };
  },
});
