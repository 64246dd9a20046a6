/** `GET /api/v1/form-submissions/{submissionId}`: one form submission with field-level detail. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { uuid } from '#api/params';

export default plannedOperation({
  operationId: 'getFormSubmission',
  method: 'GET',
  path: '/api/v1/form-submissions/{submissionId}',
  access: 'read',
  summary: 'One form submission with field-level detail.',
  schemas: () => ({ path: z.object({ submissionId: uuid() }) }),
  planned: 'issue #12 (pages for people outside the team)',
});
