/** `GET /api/v1/form-submissions/{submissionId}`: one form submission with field-level detail. */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { formSubmissionResponse } from '#api/responses/pages';
import { getSubmission } from '#db/form-submissions';
import { uuid } from '#api/params';

export default defineOperation({
  operationId: 'getFormSubmission',
  method: 'GET',
  path: '/api/v1/form-submissions/{submissionId}',
  access: 'read',
  summary: 'One form submission with field-level detail.',
  schemas: () => ({ path: z.object({ submissionId: uuid() }) }),
  response: formSubmissionResponse,
  /** `{data: FormSubmission}` with each field's label and value. */
  handler: async ({ path }, { principal }) => ({ body: { data: await getSubmission(principal.orgId, path.submissionId) } }),
});
