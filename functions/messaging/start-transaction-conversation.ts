/**
 * `POST /api/v1/transactions/{transactionId}/conversations`: starts a deal conversation by sending the first SMS to a
 * linked contact (`contactId`) or a number (`toPhoneNumber`). An opted-out number is never texted (409), whatever
 * `forceOverride` says; `forceOverride` only repeats a text sent to the same number in the last 10 minutes.
 */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { sentTextResponse } from '#api/responses/messaging';
import { uuidPath } from '#api/params';
import { smsText } from '#api/schemas/messaging';
import { startDealConversation, sentTextView } from '#use-cases/messaging/deal-sms';

export default defineOperation({
  operationId: 'startTransactionConversation',
  method: 'POST',
  path: '/api/v1/transactions/{transactionId}/conversations',
  access: 'actions',
  idempotent: true,
  summary: 'Starts a deal conversation by sending the first SMS.',
  uses: ['messages:queue', 'phone-numbers'],
  schemas: () => ({
    path: uuidPath('transactionId'),
    body: z.object({
      contactId: z.nullable(z.string().check(z.maxLength(100))),
      toPhoneNumber: z.nullable(z.string().check(z.maxLength(32))),
      messageContent: z.nullable(smsText()),
      forceOverride: z.boolean(),
    }),
  }),
  example: { body: { contactId: null, toPhoneNumber: '(512) 555-0143', messageContent: 'Hi Maria, the inspection is booked for Tuesday at 10.', forceOverride: false } },
  response: sentTextResponse,
  /** `{data: {message, conversation}}` (the conversation with that number is reused when the deal has one). */
  handler: async ({ path, body }, { principal, now }) => {
    return { body: { data: sentTextView(await startDealConversation(principal, path.transactionId, body, now)) } };
  },
});
