/**
 * `GET /api/v1/transactions/resolve`: deals whose address best matches `property`, ranked by score
 * (`limit`, default 3; optional `status`). Reads the organization's deal list once.
 */
import type { OperationHandler } from '#http/context';
import { listAllTransactions } from '#db/transactions';
import { addressScore, MIN_MATCH_SCORE } from '#domain/address-match';

export const resolveTransactions: OperationHandler = async ({ query }, { principal }) => {
  const deals = await listAllTransactions(principal.orgId, query.status);
  const ranked = deals
    .map((t) => ({ score: addressScore(query.property, t.address), transaction: t }))
    .filter((m) => m.score >= MIN_MATCH_SCORE)
    .sort((a, b) => b.score - a.score || b.transaction.updatedAt.localeCompare(a.transaction.updatedAt))
    .slice(0, query.limit);
  return {
    body: {
      query: query.property,
      data: ranked.map(({ score, transaction }) => ({ transactionId: transaction.id, address: transaction.address, status: transaction.status, score, transaction })),
    },
  };
};
