/** `POST /api/v1/transactions/{transactionId}/emails/document-request`: emails a party asking for the listed document types. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { uuid, uuidPath } from '#api/params';
import { html, label, subject, text } from '#api/schemas/messaging';

export default plannedOperation({
  operationId: 'sendDocumentRequestEmail',
  method: 'POST',
  path: '/api/v1/transactions/{transactionId}/emails/document-request',
  access: 'actions',
  idempotent: true,
  summary: 'Emails a party asking for the listed document types.',
  schemas: () => ({
    path: uuidPath('transactionId'),
    body: z.object({
      bodyHtml: html(),
      documentTypes: z.array(z.string().check(z.maxLength(200))).check(z.maxLength(100)),
      recipientContactId: uuid(),
      recipientRole: label(),
      subject: subject(),
      bodyPlainText: z.optional(text()),
      tone: z.optional(label()),
    }),
  }),
  planned: 'issue #9 (messaging and contacts)',
});
