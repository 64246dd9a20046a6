/** `POST /api/v1/transactions/{transactionId}/checklist`: applies a checklist template to the deal. */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { uuid, uuidPath } from '#api/params';
import { dataOf } from '#api/responses/common';
import { AppliedChecklistResult } from '#api/responses/checklists';
import { SYSTEM_CHECKLIST_TEMPLATES } from '#domain/checklists';
import { applyChecklist } from '#use-cases/checklists';

export default defineOperation({
  operationId: 'applyChecklistTemplate',
  method: 'POST',
  path: '/api/v1/transactions/{transactionId}/checklist',
  access: 'draft',
  // replaceExisting removes open checklist tasks (Delete items in the transaction, then their comments).
  uses: ['table:delete'],
  summary: "Applies a checklist template: its items become tasks following the deal's key dates; scope = all or sections; replaceExisting swaps earlier checklists' open tasks.",
  response: () => dataOf(AppliedChecklistResult),
  schemas: () => ({
    path: uuidPath('transactionId'),
    body: z.object({
      templateId: uuid(),
      replaceExisting: z.nullish(z.boolean()),
      scope: z.nullish(z.string().check(z.maxLength(100))),
    }),
  }),
  example: { body: { templateId: SYSTEM_CHECKLIST_TEMPLATES[0].id, replaceExisting: true, scope: 'option_period,closing' } },
  handler: async ({ path, body }, { principal, now }) => ({ body: { data: await applyChecklist(principal, path.transactionId, body, now) } }),
});
