/** `POST /api/v1/tasks/{taskId}/assign`: assigns a task to a member, or unassigns it with null. */
import type { OperationHandler } from '#http/context';
import { assignTask as assign } from '#db/tasks';

export const assignTask: OperationHandler = async ({ path, body }, { principal }) => ({
  body: { data: await assign({ orgId: principal.orgId, userId: principal.userId }, path.taskId, body.assigneeUserId) },
});
