/** `POST /api/v1/transactions/{transactionId}/tasks`: creates a task, optionally following a key date. */
import type { OperationHandler } from '#http/context';
import { createTask as create } from '#db/tasks';

export const createTask: OperationHandler = async ({ path, body }, { principal, now }) => ({
  body: { data: await create({ orgId: principal.orgId, userId: principal.userId }, path.transactionId, body, now) },
});
