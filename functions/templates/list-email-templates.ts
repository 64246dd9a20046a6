/** `GET /api/v1/email-templates`: active organization and system email templates. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { int32 } from '#api/params';
import { filter } from '#api/schemas/templates';

export default plannedOperation({
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
  planned: 'issue #11 (deal workspace)',
});
