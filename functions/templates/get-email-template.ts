/** `GET /api/v1/email-templates/{idOrSlug}`: one email template (system or the organization's) by id or slug. */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { dataOf } from '#api/responses/common';
import { EmailTemplate } from '#api/responses/templates';
import { getEmailTemplate } from '#use-cases/email-templates';

export default defineOperation({
  operationId: 'getEmailTemplate',
  method: 'GET',
  path: '/api/v1/email-templates/{idOrSlug}',
  access: 'read',
  summary: 'One email template by id or slug.',
  schemas: () => ({ path: z.object({ idOrSlug: z.string().check(z.minLength(1), z.maxLength(200)) }) }),
  response: () => dataOf(EmailTemplate),
  /** An inactive organization template is still found by its id or slug (the list shows active ones only). */
  handler: async ({ path }, { principal }) => ({ body: { data: await getEmailTemplate(principal.orgId, path.idOrSlug) } }),
});
