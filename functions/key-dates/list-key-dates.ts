/** `GET /api/v1/transactions/{transactionId}/key-dates`: the deal's key dates, soonest first. */
import type { OperationHandler } from '#http/context';
import { listKeyDates as list } from '#db/key-dates';

export const listKeyDates: OperationHandler = async ({ path }, { principal }) => ({
  body: { data: await list(principal.orgId, path.transactionId) },
});
