/** `POST /api/v1/transactions/{transactionId}/emails/agent-followup`: sends a follow-up email to an agent on a topic. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { uuid, uuidPath } from '#api/params';
import { html, label, subject, text } from '#api/schemas/messaging';

export default plannedOperation({
  operationId: 'sendAgentFollowupEmail',
  method: 'POST',
  path: '/api/v1/transactions/{transactionId}/emails/agent-followup',
  access: 'actions',
  idempotent: true,
  summary: 'Sends a follow-up email to an agent on a topic.',
  schemas: () => ({
    path: uuidPath('transactionId'),
    body: z.object({
      bodyHtml: html(),
      recipientContactId: uuid(),
      recipientRole: label(),
      subject: subject(),
      topic: label(),
      bodyPlainText: z.optional(text()),
      sourceContextSummary: z.optional(text()),
      tone: z.optional(label()),
    }),
  }),
  planned: 'issue #9 (messaging and contacts)',
});
