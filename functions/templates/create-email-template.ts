/** `POST /api/v1/email-templates`: creates an organization email template. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';

export default plannedOperation({
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
  planned: 'issue #11 (deal workspace)',
});
