/** `POST /api/v1/transactions/{transactionId}/messages`: sends an email on the deal; it joins the merged thread with channel 'email'. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { html, subject, text } from '#api/schemas/messaging';

export default plannedOperation({
  operationId: 'sendTransactionEmail',
  method: 'POST',
  path: '/api/v1/transactions/{transactionId}/messages',
  access: 'actions',
  idempotent: true,
  summary: "Sends an email on the deal; it joins the merged thread with channel 'email'.",
  schemas: () => ({
    path: uuidPath('transactionId'),
    body: z.object({
      toEmail: z.nullish(z.string().check(z.maxLength(2000))),
      ccAddresses: z.nullish(z.string().check(z.maxLength(4000))),
      bccAddresses: z.nullish(z.string().check(z.maxLength(4000))),
      subject: z.nullish(subject()),
      body: z.nullish(text()),
      htmlBody: z.nullish(html()),
      fromAccountId: z.nullish(z.string().check(z.maxLength(200))),
      replyToMessageId: z.nullish(z.string().check(z.maxLength(1000))),
      templateId: z.nullish(z.string().check(z.maxLength(200))),
    }),
  }),
  planned: 'issue #9 (messaging and contacts)',
});
