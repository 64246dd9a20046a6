/** `GET /api/v1/tasks`: open tasks, soonest due first (`transactionId`, `assignedTo` = user id, `me` or `unassigned`, `limit`). */
import type { OperationHandler } from '#http/context';
import { listOpenTasks } from '#db/tasks';

export const listTasks: OperationHandler = async ({ query }, { principal }) => ({
  body: { data: await listOpenTasks({ orgId: principal.orgId, userId: principal.userId }, query) },
});
