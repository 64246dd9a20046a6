/** `POST /api/v1/tasks/delete`: permanently deletes tasks; ids not found are listed in `notFound`. */
import type { OperationHandler } from '#http/context';
import { deleteTasks as remove } from '#db/tasks';

export const deleteTasks: OperationHandler = async ({ body }, { principal }) => ({
  body: await remove({ orgId: principal.orgId, userId: principal.userId }, body.taskIds),
});
