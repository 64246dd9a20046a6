/**
 * `POST /api/v1/transactions/{transactionId}/emails/document-request`: emails a deal party (linked with exactly
 * `recipientRole`) asking for the listed document types, which the email lists after the given body.
 */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { Message } from '#api/responses/messaging';
import { dataOf } from '#api/responses/common';
import { uuid, uuidPath } from '#api/params';
import { html, label, subject, text } from '#api/schemas/messaging';
import { messageView } from '#db/communications';
import { documentRequestAppendix, sendRoleEmail } from '#use-cases/messaging/role-email';

export default defineOperation({
  operationId: 'sendDocumentRequestEmail',
  method: 'POST',
  path: '/api/v1/transactions/{transactionId}/emails/document-request',
  access: 'actions',
  idempotent: true,
  summary: 'Emails a party asking for the listed document types.',
  uses: ['messages:queue'],
  schemas: () => ({
    path: uuidPath('transactionId'),
    body: z.object({
      bodyHtml: html(),
      documentTypes: z.array(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))).check(z.minLength(1, 'is required: at least one document type'), z.maxLength(100)),
      recipientContactId: uuid(),
      recipientRole: label(),
      subject: subject(),
      bodyPlainText: z.optional(text()),
      tone: z.optional(label()),
    }),
  }),
  example: {
    body: {
      bodyHtml: '<p>Hi Maria, to keep closing on schedule we need the documents below by Friday.</p>',
      documentTypes: ['Proof of homeowners insurance', 'Signed lender disclosures'],
      recipientContactId: '6f1c2d9e-4b7a-4c1e-9a53-2d8e7f0b1c34',
      recipientRole: 'Buyer',
      subject: 'Documents needed for closing',
    },
  },
  response: () => dataOf(Message),
  /** `{data: message}`; the body ends with the list of `documentTypes`, also kept in `context.documentTypes`. */
  handler: async ({ path, body }, { principal, now }) => {
    const { documentTypes, tone, ...email } = body;
    const types = [...new Set(documentTypes)];
    const message = await sendRoleEmail(
      principal,
      path.transactionId,
      { kind: 'document_request_email', ...email, context: { documentTypes: types, tone }, appendix: documentRequestAppendix(types) },
      now,
    );
    return { body: { data: messageView(message) } };
  },
});
