/**
 * `POST /api/v1/transactions/{transactionId}/emails/agent`: sends an email to an agent of the deal through the acting
 * user's mailbox. The recipient must be linked to the deal with exactly `recipientRole`.
 */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { Message } from '#api/responses/messaging';
import { dataOf } from '#api/responses/common';
import { uuid, uuidPath } from '#api/params';
import { html, label, subject, text } from '#api/schemas/messaging';
import { messageView } from '#db/communications';
import { sendRoleEmail } from '#use-cases/messaging/role-email';

export default defineOperation({
  operationId: 'sendAgentEmail',
  method: 'POST',
  path: '/api/v1/transactions/{transactionId}/emails/agent',
  access: 'actions',
  idempotent: true,
  summary: "Sends an email to an agent through the acting user's mailbox.",
  uses: ['messages:queue'],
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
  example: {
    body: {
      bodyHtml: '<p>Hi Tom, could you confirm the seller received the option fee?</p>',
      intent: 'confirm option fee',
      recipientContactId: '6f1c2d9e-4b7a-4c1e-9a53-2d8e7f0b1c34',
      recipientRole: 'Listing Agent',
      subject: 'Option fee receipt',
    },
  },
  response: () => dataOf(Message),
  /** `{data: message}` (422 when the contact is not linked to the deal with exactly that role). */
  handler: async ({ path, body }, { principal, now }) => ({
    body: {
      data: messageView(
        await sendRoleEmail(principal, path.transactionId, { kind: 'agent_email', ...body, context: { intent: body.intent } }, now),
      ),
    },
  }),
});
