/**
 * `POST /api/v1/transactions/{transactionId}/messages`: sends an email on the deal; it joins the merged thread with
 * channel `email`. Address lists are separated by commas or semicolons; a `templateId` is refused (422) until email
 * templates exist.
 */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { Message } from '#api/responses/messaging';
import { dataOf } from '#api/responses/common';
import { uuidPath } from '#api/params';
import { addressList, html, subject, text } from '#api/schemas/messaging';
import { messageView } from '#db/communications';
import { sendTransactionEmail } from '#use-cases/messaging/transaction-email';

export default defineOperation({
  operationId: 'sendTransactionEmail',
  method: 'POST',
  path: '/api/v1/transactions/{transactionId}/messages',
  access: 'actions',
  idempotent: true,
  summary: "Sends an email on the deal; it joins the merged thread with channel 'email'.",
  uses: ['messages:queue'],
  schemas: () => ({
    path: uuidPath('transactionId'),
    body: z.object({
      toEmail: z.nullish(addressList()),
      ccAddresses: z.nullish(addressList()),
      bccAddresses: z.nullish(addressList()),
      subject: z.nullish(subject()),
      body: z.nullish(text()),
      htmlBody: z.nullish(html()),
      fromAccountId: z.nullish(z.string().check(z.maxLength(200))),
      replyToMessageId: z.nullish(z.string().check(z.maxLength(1000))),
      templateId: z.nullish(z.string().check(z.maxLength(200))),
    }),
  }),
  example: { body: { toEmail: 'maria.delgado@example.com; lender@example.com', subject: 'Option period ends Friday', body: 'Hi Maria, a reminder that the option period ends Friday at 5 pm.' } },
  response: () => dataOf(Message),
  /** `{data: message}`: the message as recorded, `queued`; the send worker marks it `sent`, or `failed` with `statusDetail` (see the thread). */
  handler: async ({ path, body }, { principal, now }) => ({
    body: { data: messageView(await sendTransactionEmail(principal, path.transactionId, body, now)) },
  }),
});
