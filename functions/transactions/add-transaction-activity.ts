/** `POST /api/v1/transactions/{transactionId}/activity`: appends an entry to the deal's activity log. */
import type { OperationHandler } from '#http/context';
import { activityPut } from '#db/activity';
import { touchTransaction } from '#db/transactions';
import { transactWrite } from '#db/transact';
import { NotFoundError } from '#http/errors';

export const addTransactionActivity: OperationHandler = async ({ path, body }, { principal, now }) => {
  const { entry, put } = activityPut(principal.orgId, { transactionId: path.transactionId, type: body.type, summary: body.summary, details: body.details ?? null, userId: principal.userId }, now);
  // The touch fails for a missing or foreign deal, so nothing is written then.
  await transactWrite([touchTransaction(principal.orgId, { id: path.transactionId, status: '' }, now), put], () => new NotFoundError('Transaction'));
  return { body: { data: entry } };
};
