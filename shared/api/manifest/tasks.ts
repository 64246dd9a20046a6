/** Manifest: spec "Tasks", plus task creation from spec "Transactions". */
import * as z from '#api/zod';
import type { OperationSpec } from '#api/types';
import { dateTime, int32, uuid } from '#api/params';

const implemented = { status: 'implemented' } as const;
const taskPath = z.object({ taskId: uuid() });

export const tasksOperations: OperationSpec[] = [
  {
    operationId: 'createTask',
    method: 'POST',
    path: '/api/v1/transactions/{transactionId}/tasks',
    access: 'draft',
    idempotent: false,
    group: 'tasks',
    summary: 'Creates a task; when linkedMilestoneName names a key date the due date follows it.',
    schemas: () => ({
      path: z.object({ transactionId: uuid() }),
      body: z.object({
        title: z.string().check(z.trim(), z.minLength(1), z.maxLength(300)),
        description: z.nullish(z.string().check(z.maxLength(5000))),
        dueDate: z.nullish(dateTime()),
        priority: z.nullish(int32({ min: 0, max: 5 })),
        assigneeUserId: z.nullish(uuid()),
        linkedMilestoneName: z.nullish(z.string().check(z.maxLength(64))),
      }),
    }),
    availability: implemented,
  },
  {
    operationId: 'listTasks',
    method: 'GET',
    path: '/api/v1/tasks',
    access: 'read',
    idempotent: false,
    group: 'tasks',
    summary: 'Open tasks, soonest due first.',
    schemas: () => ({
      query: z.object({
        transactionId: z.optional(uuid()),
        assignedTo: z.optional(z.string().check(z.maxLength(100))),
        limit: z._default(int32({ min: 1, max: 200 }), 50),
      }),
    }),
    availability: implemented,
  },
  {
    operationId: 'deleteTasks',
    method: 'POST',
    path: '/api/v1/tasks/delete',
    access: 'actions',
    idempotent: false,
    group: 'tasks',
    summary: 'Permanently deletes tasks by id; unknown ids are reported, not errors.',
    schemas: () => ({ body: z.object({ taskIds: z.array(uuid()).check(z.minLength(1), z.maxLength(100)) }) }),
    availability: implemented,
  },
  {
    operationId: 'assignTask',
    method: 'POST',
    path: '/api/v1/tasks/{taskId}/assign',
    access: 'draft',
    idempotent: false,
    group: 'tasks',
    summary: 'Assigns a task to a member, or unassigns it with null.',
    schemas: () => ({ path: taskPath, body: z.object({ assigneeUserId: z.nullable(uuid()) }) }),
    availability: implemented,
  },
  {
    operationId: 'listTaskComments',
    method: 'GET',
    path: '/api/v1/tasks/{taskId}/comments',
    access: 'read',
    idempotent: false,
    group: 'tasks',
    summary: "A task's comment thread, oldest first.",
    schemas: () => ({ path: taskPath }),
    availability: implemented,
  },
  {
    operationId: 'addTaskComment',
    method: 'POST',
    path: '/api/v1/tasks/{taskId}/comments',
    access: 'draft',
    idempotent: false,
    group: 'tasks',
    summary: 'Adds a comment authored by the calling user.',
    schemas: () => ({
      path: taskPath,
      body: z.object({ content: z.string().check(z.trim(), z.minLength(1), z.maxLength(5000)) }),
    }),
    availability: implemented,
  },
  {
    operationId: 'deleteTaskComment',
    method: 'DELETE',
    path: '/api/v1/tasks/{taskId}/comments/{commentId}',
    access: 'draft',
    idempotent: false,
    group: 'tasks',
    summary: "Deletes a comment; only its author may.",
    schemas: () => ({ path: z.object({ taskId: uuid(), commentId: uuid() }) }),
    availability: implemented,
  },
  {
    operationId: 'completeTask',
    method: 'POST',
    path: '/api/v1/tasks/{taskId}/complete',
    access: 'draft',
    idempotent: false,
    group: 'tasks',
    summary: 'Marks a task complete (CompleteTaskRequest designed here: optional note).',
    schemas: () => ({
      path: taskPath,
      body: z.optional(
        z.object({ note: z.nullish(z.string().check(z.maxLength(2000))), completedAt: z.nullish(dateTime()) }),
      ),
    }),
    availability: implemented,
    designedHere: true,
  },
];
