/** `GET /api/v1/checklist-templates`: checklist templates, filtered by category, complexity, side, state and type. */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { boolParam } from '#api/params';
import { filter } from '#api/schemas/templates';
import { listOf } from '#api/responses/common';
import { ChecklistTemplate } from '#api/responses/checklists';
import { filterChecklistTemplates, SYSTEM_CHECKLIST_TEMPLATES } from '#domain/checklists';

export default defineOperation({
  operationId: 'listChecklistTemplates',
  method: 'GET',
  path: '/api/v1/checklist-templates',
  access: 'read',
  summary: 'Checklist templates, filtered by category, complexity, side, state and type (activeOnly defaults to true).',
  response: () => listOf(ChecklistTemplate),
  schemas: () => ({
    query: z.object({
      activeOnly: z.optional(boolParam()),
      category: filter(),
      complexity: filter(),
      side: filter(),
      state: filter(),
      transactionType: filter(),
    }),
  }),
  example: { query: { state: 'TX', side: 'Buyer', transactionType: 'Purchase' } },
  handler: async ({ query }) => ({ body: { data: filterChecklistTemplates(SYSTEM_CHECKLIST_TEMPLATES, query) } }),
});
