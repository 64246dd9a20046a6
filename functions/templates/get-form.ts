/** `GET /api/v1/forms/{formId}`: one form template with its field list. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { uuid } from '#api/params';

export default plannedOperation({
  operationId: 'getForm',
  method: 'GET',
  path: '/api/v1/forms/{formId}',
  access: 'read',
  summary: 'One form template with its field list.',
  schemas: () => ({ path: z.object({ formId: uuid() }) }),
  planned: 'issue #12 (pages for people outside the team)',
});
