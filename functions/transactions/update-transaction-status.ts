/**
 * `PATCH /api/v1/transactions/{transactionId}/status`: sets a status of the organization's vocabulary and
 * runs its cascade (tasks created, key dates shifted, `transaction.closed` on a closed status).
 */
import type { OperationHandler } from '#http/context';
import { changeStatus } from '#db/transaction-status';
import { ValidationError } from '#http/errors';

export const updateTransactionStatus: OperationHandler = async ({ path, body }, { principal, now }) => {
  if (body.status === null) throw new ValidationError({ status: 'is required; a transaction always has a status' });
  const result = await changeStatus({ orgId: principal.orgId, userId: principal.userId }, path.transactionId, body.status, now);
  return { body: { data: result.transaction, changed: result.changed, cascade: result.cascade } };
};
