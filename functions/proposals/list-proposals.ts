/** `GET /api/v1/proposals`: aI proposals, filtered by status and deal. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { int32, uuid } from '#api/params';

export default plannedOperation({
  operationId: 'listProposals',
  method: 'GET',
  path: '/api/v1/proposals',
  access: 'read',
  summary: 'AI proposals, filtered by status and deal.',
  schemas: () => ({
    query: z.object({
      limit: z.optional(int32({ min: 1, max: 100 })),
      offset: z.optional(int32({ min: 0 })),
      status: z.optional(z.string().check(z.maxLength(50))),
      transactionId: z.optional(uuid()),
    }),
  }),
  planned: 'issue #11 (deal workspace)',
});
