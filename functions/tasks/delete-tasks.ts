/** `POST /api/v1/tasks/delete`: permanently deletes tasks; ids not found are listed in `notFound`. */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { uuid } from '#api/params';
import { deleteTasks } from '#use-cases/tasks';
import { id } from '#api/responses/common';

export default defineOperation({
  operationId: 'deleteTasks',
  method: 'POST',
  path: '/api/v1/tasks/delete',
  access: 'actions',
  summary: 'Permanently deletes tasks by id; unknown ids are reported, not errors.',
  response: () => z.object({ deleted: z.array(id()), notFound: z.array(id()) }),
  uses: ['table:delete', 'table:batch-get'],
  schemas: () => ({ body: z.object({ taskIds: z.array(uuid()).check(z.minLength(1), z.maxLength(100)) }) }),
  example: { body: { taskIds: ['0d3c8f4e-5b7a-4f0e-9a51-3c2b1d4e6f70'] } },
  handler: async ({ body }, { principal }) => ({
    body: await deleteTasks(principal, body.taskIds),
  }),
});
