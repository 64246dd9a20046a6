/**
 * `POST /api/v1/transactions/{transactionId}/scheduled-messages`: schedules an email on the deal for a wall-clock time
 * in an IANA time zone (`scheduledAt` `2027-01-15T09:00` + `scheduledTimezone` `America/Chicago`; an ISO instant with
 * an offset needs no zone). Checked as a send would be, now; sent once when its one-time schedule fires.
 */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { ScheduledMessage } from '#api/responses/messaging';
import { dataOf } from '#api/responses/common';
import { uuid, uuidPath } from '#api/params';
import { addressList, documentIds, html, subject, text } from '#api/schemas/messaging';
import { boundedRecord } from '#api/schemas/free-form';
import { scheduledMessageView } from '#db/scheduled-messages';
import { scheduleDealEmail } from '#use-cases/messaging/scheduled-email';

export default defineOperation({
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
      toEmail: z.nullish(addressList()),
      ccAddresses: z.nullish(addressList()),
      bccAddresses: z.nullish(addressList()),
      subject: z.nullish(subject()),
      body: z.nullish(text()),
      htmlBody: z.nullish(html()),
      fromAccountId: z.nullish(z.string().check(z.maxLength(200))),
      /** Deal documents to attach, `{documentId, fileName?}` (another way to give `documentIds` and `documentFileNames`). */
      attachments: z.nullish(z.array(z.object({ documentId: uuid(), fileName: z.nullish(z.string().check(z.minLength(1), z.maxLength(200))) })).check(z.maxLength(20))),
      documentIds: z.nullish(documentIds()),
      /** documentId → file name to attach it as; keys are caller-chosen, so read as own properties only (`#domain/dict`). */
      documentFileNames: z.nullish(boundedRecord(z.string().check(z.maxLength(100)), z.string().check(z.minLength(1), z.maxLength(200)), 20)),
    }),
  }),
  example: {
    body: {
      scheduledAt: '2027-01-15T09:00',
      scheduledTimezone: 'America/Chicago',
      toEmail: 'maria.delgado@example.com',
      subject: 'Closing is one week out',
      body: 'Hi Maria, closing is a week from today. Here is what is left to do.',
    },
  },
  response: () => dataOf(ScheduledMessage),
  /** `{data: scheduledMessage}`, status `pending`. */
  handler: async ({ path, body }, { principal, now }) => ({
    body: { data: scheduledMessageView(await scheduleDealEmail(principal, path.transactionId, body, now)) },
  }),
});
