/** `GET /api/v1/proposals`: AI proposals, filtered by status and deal. */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { int32, uuid } from '#api/params';
import { proposalPage } from '#api/responses/proposals';
import { getDeal } from '#db/transactions';
import { pageOfProposals, viewOf } from '#use-cases/proposals';

export default defineOperation({
  operationId: 'listProposals',
  method: 'GET',
  path: '/api/v1/proposals',
  access: 'read',
  summary: 'AI proposals, newest first: status pending (default), approved, rejected or all; optionally of one deal.',
  response: proposalPage,
  schemas: () => ({
    query: z.object({
      limit: z.optional(int32({ min: 1, max: 100 })),
      offset: z.optional(int32({ min: 0 })),
      status: z.optional(z.string().check(z.maxLength(50))),
      transactionId: z.optional(uuid()),
    }),
  }),
  example: { query: { status: 'pending', limit: 10 } },
  handler: async ({ query }, { principal }) => {
    const limit = query.limit ?? 25;
    const offset = query.offset ?? 0;
    const page = await pageOfProposals(principal.orgId, { ...query, limit, offset });
    // Staleness against each deal as it is now (one read per deal on the page).
    const deals = new Map(await Promise.all([...new Set(page.proposals.map((p) => p.transactionId))].map(async (t) => [t, await getDeal(principal.orgId, t).catch(() => null)] as const)));
    return { body: { data: page.proposals.map((p) => viewOf(p, deals.get(p.transactionId) ?? null)), limit, offset, hasMore: page.hasMore } };
  },
});
