/**
 * `POST /api/v1/transactions/{transactionId}/emails/client-update`: sends a deal-status update email to a client. The
 * request names no role: the recipient must be linked to the deal (with any role), and may get deal documents attached.
 */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { Message } from '#api/responses/messaging';
import { dataOf } from '#api/responses/common';
import { uuid, uuidPath } from '#api/params';
import { documentIds, html, label, subject, text } from '#api/schemas/messaging';
import { messageView } from '#db/communications';
import { sendRoleEmail } from '#use-cases/messaging/role-email';

export default defineOperation({
  operationId: 'sendClientUpdateEmail',
  method: 'POST',
  path: '/api/v1/transactions/{transactionId}/emails/client-update',
  access: 'actions',
  idempotent: true,
  summary: 'Sends a deal-status update email to the client.',
  uses: ['messages:queue'],
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
      attachmentDocumentIds: z.optional(documentIds()),
    }),
  }),
  example: {
    body: {
      audience: 'buyer',
      bodyHtml: '<p>Good news: the appraisal came in at value. Next up is final loan approval.</p>',
      focus: 'appraisal',
      recipientContactId: '6f1c2d9e-4b7a-4c1e-9a53-2d8e7f0b1c34',
      subject: 'Your purchase: appraisal done',
    },
  },
  response: () => dataOf(Message),
  /** `{data: message}` with `documents` listing the attachments. */
  handler: async ({ path, body }, { principal, now }) => {
    const { audience, focus, tone, attachmentDocumentIds, ...email } = body;
    const message = await sendRoleEmail(
      principal,
      path.transactionId,
      { kind: 'client_update_email', ...email, context: { audience, focus, tone }, documentIds: attachmentDocumentIds, documentsField: 'attachmentDocumentIds' },
      now,
    );
    return { body: { data: messageView(message) } };
  },
});
