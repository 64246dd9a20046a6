/** `GET /api/v1/forms/{formId}`: one form template with its field list. */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { formResponse } from '#api/responses/pages';
import { findForm } from '#domain/intake-forms';
import { NotFound } from '#domain/errors';
import { uuid } from '#api/params';

export default defineOperation({
  operationId: 'getForm',
  method: 'GET',
  path: '/api/v1/forms/{formId}',
  access: 'read',
  summary: 'One form template with its field list.',
  schemas: () => ({ path: z.object({ formId: uuid() }) }),
  response: formResponse,
  /** `{data: FormDefinition}`: a system intake form (the same for every organization). */
  handler: async ({ path }) => {
    const form = findForm(path.formId);
    if (!form) throw new NotFound('Form');
    return { body: { data: { ...form, isSystem: true } } };
  },
});
