/** `GET /api/v1/email-templates`: active organization and system email templates. */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { int32 } from '#api/params';
import { filter } from '#api/schemas/templates';
import { listOf } from '#api/responses/common';
import { EmailTemplate } from '#api/responses/templates';
import { listEmailTemplates } from '#use-cases/email-templates';

export default defineOperation({
  operationId: 'listEmailTemplates',
  method: 'GET',
  path: '/api/v1/email-templates',
  access: 'read',
  summary: 'Active organization and system email templates.',
  schemas: () => ({
    query: z.object({
      category: filter(),
      audience: filter(),
      stage: filter(),
      side: filter(),
      search: z.optional(z.string().check(z.maxLength(200))),
      limit: z._default(int32({ min: 1, max: 100 }), 50),
    }),
  }),
  example: { query: { category: 'deadline', audience: 'client', search: 'closing', limit: 20 } },
  response: () => listOf(EmailTemplate),
  /** `{data: EmailTemplate[]}`: the organization's active templates by name, then the system ones; filters match case-insensitively. */
  handler: async ({ query }, { principal }) => ({ body: { data: await listEmailTemplates(principal.orgId, query) } }),
});
