/**
 * `POST /api/v1/transactions/{transactionId}/emails/agent-followup`: sends a follow-up email on a topic to an agent of
 * the deal, linked with exactly `recipientRole`.
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
  operationId: 'sendAgentFollowupEmail',
  method: 'POST',
  path: '/api/v1/transactions/{transactionId}/emails/agent-followup',
  access: 'actions',
  idempotent: true,
  summary: 'Sends a follow-up email to an agent on a topic.',
  uses: ['messages:queue'],
  schemas: () => ({
    path: uuidPath('transactionId'),
    body: z.object({
      bodyHtml: html(),
      recipientContactId: uuid(),
      recipientRole: label(),
      subject: subject(),
      topic: label(),
      bodyPlainText: z.optional(text()),
      sourceContextSummary: z.optional(z.string().check(z.maxLength(5000))),
      tone: z.optional(label()),
    }),
  }),
  example: {
    body: {
      bodyHtml: '<p>Hi Jenna, following up on the repair amendment: has the buyer signed?</p>',
      recipientContactId: '6f1c2d9e-4b7a-4c1e-9a53-2d8e7f0b1c34',
      recipientRole: "Buyer's Agent",
      subject: 'Following up: repair amendment',
      topic: 'repair amendment',
      tone: 'friendly',
    },
  },
  response: () => dataOf(Message),
  /** `{data: message}`; `context` records the topic, tone and source summary. */
  handler: async ({ path, body }, { principal, now }) => {
    const { topic, tone, sourceContextSummary, ...email } = body;
    const message = await sendRoleEmail(principal, path.transactionId, { kind: 'agent_followup_email', ...email, context: { topic, tone, sourceContextSummary } }, now);
    return { body: { data: messageView(message) } };
  },
});
