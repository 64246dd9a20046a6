/**
 * `GET /api/v1/transactions/{transactionId}/communications`: the deal's merged thread, every channel (email, SMS,
 * in-app) in time order, from one strongly consistent query of the deal's communications partition.
 */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { transactionCommunicationsResponse } from '#api/responses/messaging';
import { int32, uuidPath } from '#api/params';
import { listCommunications, messageView } from '#db/communications';
import { getTransactionHead } from '#db/transactions';

/** Messages returned when `limit` is not given. */
const DEFAULT_LIMIT = 100;

export default defineOperation({
  operationId: 'listTransactionCommunications',
  method: 'GET',
  path: '/api/v1/transactions/{transactionId}/communications',
  access: 'read',
  summary: "The deal's communications across all channels (SMS, email, in-app).",
  schemas: () => ({ path: uuidPath('transactionId'), query: z.object({ limit: z.optional(int32({ min: 1, max: 500 })) }) }),
  response: transactionCommunicationsResponse,
  /**
   * `{data: message[], hasMore}`: the newest `limit` messages (1–500, default 100), oldest first; `hasMore` says older
   * ones exist (the communication-log report has them all).
   */
  handler: async ({ path, query }, { principal }) => {
    const deal = await getTransactionHead(principal.orgId, path.transactionId);
    const limit = query.limit ?? DEFAULT_LIMIT;
    const found = await listCommunications(principal.orgId, deal.id, { limit: limit + 1 });
    return { body: { data: found.slice(-limit).map(messageView), hasMore: found.length > limit } };
  },
});
