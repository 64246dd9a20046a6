/**
 * `POST /api/v1/conversations/{threadId}/documents`: texts the conversation's number a secure link to a document of
 * its deal, expiring after `expirationHours` (default 72, at most 168).
 */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { documentShareResponse } from '#api/responses/messaging';
import { uuid, uuidPath } from '#api/params';
import { expirationHours } from '#api/schemas/messaging';
import { publicBaseUrl } from '#ports/public-url';
import { shareConversationDocument, shareView } from '#use-cases/messaging/share-document';

export default defineOperation({
  operationId: 'shareConversationDocument',
  method: 'POST',
  path: '/api/v1/conversations/{threadId}/documents',
  access: 'actions',
  idempotent: true,
  summary: 'Sends a secure document link into an existing conversation.',
  uses: ['messages:queue', 'phone-numbers'],
  schemas: () => ({
    path: uuidPath('threadId'),
    body: z.object({
      documentId: z.nullable(uuid()),
      expirationHours: z.nullable(expirationHours()),
      message: z.nullable(z.string().check(z.maxLength(1400))),
    }),
  }),
  example: { body: { documentId: '0d6b8f52-3c1e-4f7a-b9d2-5e8a1c4f7b20', expirationHours: null, message: null } },
  response: documentShareResponse,
  /** `{data: {message, conversation, link: {documentId, fileName, expiresAt, expirationHours}}}`. */
  handler: async ({ path, body }, { principal, now, event }) => {
    const shared = await shareConversationDocument(principal, { threadId: path.threadId, ...body, baseUrl: publicBaseUrl(event.requestContext.domainName) }, now);
    return { body: { data: shareView(shared) } };
  },
});
