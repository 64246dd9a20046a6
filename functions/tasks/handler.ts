/** Lambda for the `tasks` group. */
import { groupHandler } from '#http/pipeline';
import { tasksOperations } from '#api/manifest/tasks';
import { createTask } from './create-task.ts';
import { listTasks } from './list-tasks.ts';
import { deleteTasks } from './delete-tasks.ts';
import { assignTask } from './assign-task.ts';
import { completeTask } from './complete-task.ts';
import { addTaskComment, deleteTaskComment, listTaskComments } from './task-comments.ts';

export const operations = { createTask, listTasks, deleteTasks, assignTask, completeTask, listTaskComments, addTaskComment, deleteTaskComment };
/** The group's operations (manifest): the only routes this function resolves. */
export const manifest = tasksOperations;
export const handler = groupHandler('tasks', manifest, operations);
