/** `POST /api/v1/transactions/{transactionId}/scheduled-messages`: schedules an email on the deal for later sending. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { uuid, uuidPath } from '#api/params';
import { html, subject, text } from '#api/schemas/messaging';
import { boundedRecord, jsonScalar } from '#api/schemas/free-form';

export default plannedOperation({
  operationId: 'scheduleTransactionMessage',
  method: 'POST',
  path: '/api/v1/transactions/{transactionId}/scheduled-messages',
  access: 'actions',
  idempotent: true,
  summary: 'Schedules an email on the deal for later sending.',
  schemas: () => ({
    path: uuidPath('transactionId'),
    body: z.object({
      scheduledAt: z.nullish(z.string().check(z.maxLength(100))),
      scheduledTimezone: z.nullish(z.string().check(z.maxLength(100))),
      toEmail: z.nullish(z.string().check(z.maxLength(2000))),
      ccAddresses: z.nullish(z.string().check(z.maxLength(4000))),
      bccAddresses: z.nullish(z.string().check(z.maxLength(4000))),
      subject: z.nullish(subject()),
      body: z.nullish(text()),
      htmlBody: z.nullish(html()),
      fromAccountId: z.nullish(z.string().check(z.maxLength(200))),
      attachments: z.nullish(z.array(boundedRecord(z.string().check(z.maxLength(100)), jsonScalar(10_000), 20)).check(z.maxLength(50))),
      documentIds: z.nullish(z.array(uuid()).check(z.maxLength(50))),
      documentFileNames: z.nullish(boundedRecord(z.string().check(z.maxLength(100)), z.string().check(z.maxLength(500)), 50)),
    }),
  }),
  planned: 'issue #9 (messaging and contacts)',
});
