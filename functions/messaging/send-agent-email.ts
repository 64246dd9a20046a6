/** `POST /api/v1/transactions/{transactionId}/emails/agent`: sends an email to an agent through the acting user's mailbox. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { uuid, uuidPath } from '#api/params';
import { html, label, subject, text } from '#api/schemas/messaging';

export default plannedOperation({
  operationId: 'sendAgentEmail',
  method: 'POST',
  path: '/api/v1/transactions/{transactionId}/emails/agent',
  access: 'actions',
  idempotent: true,
  summary: "Sends an email to an agent through the acting user's mailbox.",
  schemas: () => ({
    path: uuidPath('transactionId'),
    body: z.object({
      bodyHtml: z.nullable(html()),
      intent: z.nullable(label()),
      recipientContactId: z.nullable(uuid()),
      recipientRole: z.nullable(label()),
      subject: z.nullable(subject()),
      bodyPlainText: z.optional(text()),
    }),
  }),
  planned: 'issue #9 (messaging and contacts)',
});
