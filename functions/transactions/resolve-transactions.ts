/**
 * `GET /api/v1/transactions/resolve`: deals whose address best matches `property`, ranked by score
 * (`limit`, default 3; optional `status`). Ranks the candidates the address index finds (a bounded read,
 * `findDealsByAddress`).
 */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { int32 } from '#api/params';
import { findDealsByAddress } from '#db/transactions';
import { addressScore, MIN_MATCH_SCORE } from '#domain/address-match';
import { id } from '#api/responses/common';
import { Transaction } from '#api/responses/deals';

export default defineOperation({
  operationId: 'resolveTransactions',
  method: 'GET',
  path: '/api/v1/transactions/resolve',
  access: 'read',
  summary: 'Ranked matches of a free-text property address.',
  response: () => z.object({ query: z.string(), data: z.array(z.object({ transactionId: id(), address: z.string(), status: z.string(), score: z.number(), transaction: Transaction })) }),
  schemas: () => ({
    query: z.object({
      property: z.string().check(z.trim(), z.minLength(1), z.maxLength(300)),
      status: z.optional(z.string().check(z.maxLength(100))),
      limit: z._default(int32({ min: 1, max: 25 }), 3),
    }),
  }),
  example: { query: { property: '1207 Live Oak Lane' } },
  handler: async ({ query }, { principal }) => {
    const deals = await findDealsByAddress(principal.orgId, query.property, query.status);
    const ranked = deals
      .map((t) => ({ score: addressScore(query.property, t.address), transaction: t }))
      .filter((m) => m.score >= MIN_MATCH_SCORE)
      .sort((a, b) => b.score - a.score || b.transaction.updatedAt.localeCompare(a.transaction.updatedAt))
      .slice(0, query.limit);
    return {
      body: {
        query: query.property,
        data: ranked.map(({ score, transaction }) => ({
          transactionId: transaction.id,
          address: transaction.address,
          status: transaction.status,
          score,
          transaction,
        })),
      },
    };
  },
});
