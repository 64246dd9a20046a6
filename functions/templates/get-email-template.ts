/** `GET /api/v1/email-templates/{idOrSlug}`: one email template by id or slug. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';

export default plannedOperation({
  operationId: 'getEmailTemplate',
  method: 'GET',
  path: '/api/v1/email-templates/{idOrSlug}',
  access: 'read',
  summary: 'One email template by id or slug.',
  schemas: () => ({ path: z.object({ idOrSlug: z.string().check(z.minLength(1), z.maxLength(200)) }) }),
  planned: 'issue #11 (deal workspace)',
});
