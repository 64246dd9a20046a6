/**
 * `POST /api/v1/transactions/{transactionId}/documents/{documentId}/share`: texts a deal party a secure link to the
 * document that expires after `expirationHours` (default 72, at most 168). The link (`GET /l/{token}`) answers with a
 * 5-minute download URL; the thread records the text with the link's token elided.
 */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { documentShareResponse } from '#api/responses/messaging';
import { uuid } from '#api/params';
import { expirationHours } from '#api/schemas/messaging';
import { publicBaseUrl } from '#ports/public-url';
import { shareTransactionDocument, shareView } from '#use-cases/messaging/share-document';

export default defineOperation({
  operationId: 'shareTransactionDocument',
  method: 'POST',
  path: '/api/v1/transactions/{transactionId}/documents/{documentId}/share',
  access: 'actions',
  idempotent: true,
  summary: 'Shares a deal document by secure SMS link.',
  uses: ['messages:queue', 'phone-numbers'],
  schemas: () => ({
    path: z.object({ transactionId: uuid(), documentId: uuid() }),
    body: z.object({
      contactId: z.nullable(uuid()),
      expirationHours: z.nullable(expirationHours()),
      message: z.nullable(z.string().check(z.maxLength(1400))),
      toPhoneNumber: z.nullable(z.string().check(z.maxLength(32))),
    }),
  }),
  example: { body: { contactId: null, expirationHours: 48, message: 'Here is the signed amendment.', toPhoneNumber: '(512) 555-0143' } },
  response: documentShareResponse,
  /** `{data: {message, conversation, link: {documentId, fileName, expiresAt, expirationHours}}}` (the link's URL is only in the text). */
  handler: async ({ path, body }, { principal, now, event }) => {
    const shared = await shareTransactionDocument(principal, { ...path, ...body, baseUrl: publicBaseUrl(event.requestContext.domainName) }, now);
    return { body: { data: shareView(shared) } };
  },
});
