/** `POST /api/v1/tasks/{taskId}/complete`: marks a task complete (emits `task.completed` once). */
import type { OperationHandler } from '#http/context';
import { completeTask as complete } from '#db/tasks';

export const completeTask: OperationHandler = async ({ path, body }, { principal, now }) => ({
  body: { data: await complete({ orgId: principal.orgId, userId: principal.userId }, path.taskId, body?.note ?? null, now) },
});
