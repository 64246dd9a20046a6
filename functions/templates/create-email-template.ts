/**
 * `POST /api/v1/email-templates`: creates an organization email template. `name`, `subject` and `body` are required;
 * the subject and body are Handlebars text that must parse and name only merge fields (422 lists what does not). The
 * slug is made from the name.
 */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { dataOf } from '#api/responses/common';
import { EmailTemplate } from '#api/responses/templates';
import { createEmailTemplate } from '#use-cases/create-email-template';

export default defineOperation({
  operationId: 'createEmailTemplate',
  method: 'POST',
  path: '/api/v1/email-templates',
  access: 'actions',
  summary: 'Creates an organization email template.',
  schemas: () => ({
    body: z.object({
      name: z.nullish(z.string().check(z.maxLength(200))),
      subject: z.nullish(z.string().check(z.maxLength(998))),
      body: z.nullish(z.string().check(z.maxLength(500_000))),
      description: z.nullish(z.string().check(z.maxLength(2000))),
      category: z.nullish(z.string().check(z.maxLength(100))),
      audience: z.nullish(z.string().check(z.maxLength(100))),
      stage: z.nullish(z.string().check(z.maxLength(100))),
      side: z.nullish(z.string().check(z.maxLength(100))),
      tone: z.nullish(z.string().check(z.maxLength(100))),
      isActive: z.nullish(z.boolean()),
    }),
  }),
  example: {
    body: {
      name: 'Appraisal ordered',
      subject: 'Appraisal ordered for {{property.address}}',
      body: 'Hi {{client.firstName}},\n\nThe lender has ordered the appraisal for {{property.address}}. Closing remains {{keyDates.ClosingDate}}.',
      category: 'milestone',
      audience: 'client',
      stage: 'under_contract',
      tone: 'warm',
    },
  },
  response: () => dataOf(EmailTemplate),
  handler: async ({ body }, { principal, now }) => ({ body: { data: await createEmailTemplate(principal, body, now) } }),
});
