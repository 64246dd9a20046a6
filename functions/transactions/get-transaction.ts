/** `GET /api/v1/transactions/{transactionId}`: the deal with its key dates, tasks and recent activity. */
import type { OperationHandler } from '#http/context';
import { getDeal } from '#db/transactions';

export const getTransaction: OperationHandler = async ({ path }, { principal }) => ({
  body: { data: await getDeal(principal.orgId, path.transactionId) },
});
