/** `POST /api/v1/transactions/{transactionId}/emails/client-update`: sends a deal-status update email to the client. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { uuid, uuidPath } from '#api/params';
import { html, label, subject, text } from '#api/schemas/messaging';

export default plannedOperation({
  operationId: 'sendClientUpdateEmail',
  method: 'POST',
  path: '/api/v1/transactions/{transactionId}/emails/client-update',
  access: 'actions',
  idempotent: true,
  summary: 'Sends a deal-status update email to the client.',
  schemas: () => ({
    path: uuidPath('transactionId'),
    body: z.object({
      audience: label(),
      bodyHtml: html(),
      focus: label(),
      recipientContactId: uuid(),
      subject: subject(),
      bodyPlainText: z.optional(text()),
      tone: z.optional(label()),
      attachmentDocumentIds: z.optional(z.array(uuid()).check(z.maxLength(50))),
    }),
  }),
  planned: 'issue #9 (messaging and contacts)',
});
