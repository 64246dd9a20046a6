/**
 * `POST /api/v1/transactions/{transactionId}/draft-message`: a message draft for the deal from the intent, the deal's
 * facts and built-in wording. Never sends, writes nothing; no language model is involved (`generator: "rules"`).
 */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { MessageDraft } from '#api/responses/messaging';
import { dataOf } from '#api/responses/common';
import { uuidPath } from '#api/params';
import { label } from '#api/schemas/messaging';
import { draftDealMessage } from '#use-cases/messaging/draft-message';

export default defineOperation({
  operationId: 'draftTransactionMessage',
  method: 'POST',
  path: '/api/v1/transactions/{transactionId}/draft-message',
  access: 'draft',
  summary: 'Generates a message draft for the deal; never sends.',
  schemas: () => ({
    path: uuidPath('transactionId'),
    body: z.object({
      intent: z.string().check(z.trim(), z.minLength(1), z.maxLength(2000)),
      additionalContext: z.nullable(z.string().check(z.maxLength(5000))),
      recipientName: z.nullable(z.string().check(z.maxLength(200))),
      recipientRole: z.nullable(label()),
    }),
  }),
  example: { body: { intent: 'remind the buyer about the option period deadline', additionalContext: null, recipientName: 'Maria Delgado', recipientRole: 'Buyer' } },
  response: () => dataOf(MessageDraft),
  /** `{data: {subject, bodyText, bodyHtml, smsText, detectedIntent, generator: "rules", sent: false, facts, notes}}`. */
  handler: async ({ path, body }, { principal, now }) => ({ body: { data: await draftDealMessage(principal, path.transactionId, body, now) } }),
});
