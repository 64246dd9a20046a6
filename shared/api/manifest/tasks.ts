/** Manifest: spec "Tasks", plus task creation from spec "Transactions". */
import { z } from 'zod';
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
    schemas: {
      path: z.object({ transactionId: uuid() }),
      body: z.object({
        title: z.string().trim().min(1).max(300),
        description: z.string().max(5000).nullish(),
        dueDate: dateTime().nullish(),
        priority: int32({ min: 0, max: 5 }).nullish(),
        assigneeUserId: uuid().nullish(),
        linkedMilestoneName: z.string().max(64).nullish(),
      }),
    },
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
    schemas: {
      query: z.object({
        transactionId: uuid().optional(),
        assignedTo: z.string().max(100).optional(),
        limit: int32({ min: 1, max: 200 }).default(50),
      }),
    },
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
    schemas: { body: z.object({ taskIds: z.array(uuid()).min(1).max(100) }) },
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
    schemas: { path: taskPath, body: z.object({ assigneeUserId: uuid().nullable() }) },
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
    schemas: { path: taskPath },
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
    schemas: { path: taskPath, body: z.object({ content: z.string().trim().min(1).max(5000) }) },
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
    schemas: { path: z.object({ taskId: uuid(), commentId: uuid() }) },
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
    schemas: {
      path: taskPath,
      body: z.object({ note: z.string().max(2000).nullish(), completedAt: dateTime().nullish() }).optional(),
    },
    availability: implemented,
    designedHere: true,
  },
];
