/** `GET /api/v1/checklist-templates`: checklist templates, filtered by category, complexity, side, state and type. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { boolParam } from '#api/params';
import { filter } from '#api/schemas/templates';

export default plannedOperation({
  operationId: 'listChecklistTemplates',
  method: 'GET',
  path: '/api/v1/checklist-templates',
  access: 'read',
  summary: 'Checklist templates, filtered by category, complexity, side, state and type.',
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
  planned: 'issue #11 (deal workspace)',
});
