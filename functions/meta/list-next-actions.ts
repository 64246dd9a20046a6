/**
 * `GET /api/v1/next-actions`: ranked feed of open tasks and key dates of the next 30 days, for one deal
 * (`transactionId`) or all (`limit`, default 20).
 */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { int32, uuid } from '#api/params';
import { getDeal } from '#db/transactions';
import { listOpenTasks } from '#db/tasks';
import { listUpcomingKeyDates } from '#db/key-dates';
import { addDays, dateOf } from '#domain/calendar';
import { rankNextActions } from '#domain/next-actions';
import type { Task } from '#db/task-items';
import type { KeyDate } from '#db/key-date-items';
import { day } from '#api/responses/common';
import { NextAction } from '#api/responses/deals';

const HORIZON_DAYS = 30;

/**
 * Extra candidates of each kind read beyond `limit`. The ranking is by date (overdue tasks first, most overdue
 * first, then days until due), so the first `limit` tasks by due date and the first `limit` key dates by date hold
 * the answer; the extra ones cover same-day ties, where priority decides. The read stays bounded at any size.
 */
const TIE_ROOM = 20;

export default defineOperation({
  operationId: 'listNextActions',
  method: 'GET',
  path: '/api/v1/next-actions',
  access: 'read',
  summary: 'Ranked feed of open tasks and upcoming key dates.',
  response: () => z.object({ data: z.array(NextAction), asOf: day() }),
  schemas: () => ({
    query: z.object({ limit: z.optional(int32({ min: 1, max: 100 })), transactionId: z.optional(uuid()) }),
  }),
  example: { query: { limit: '5' } },
  handler: async ({ query }, { principal, now }) => {
    const today = dateOf(now);
    const limit = query.limit ?? 20;
    let tasks: Task[];
    let keyDates: KeyDate[];
    if (query.transactionId) {
      const deal = await getDeal(principal.orgId, query.transactionId);
      tasks = deal.tasks.filter((t) => t.status === 'open');
      const until = addDays(today, HORIZON_DAYS);
      keyDates = deal.keyDates.filter((k) => !k.completedAt && k.dateValue <= until);
    } else {
      [tasks, keyDates] = await Promise.all([
        listOpenTasks(principal, { limit: limit + TIE_ROOM }),
        listUpcomingKeyDates(principal.orgId, today, HORIZON_DAYS, limit + TIE_ROOM),
      ]);
    }
    const data = rankNextActions(
      [
        ...tasks.map((t) => ({
          kind: 'task' as const,
          transactionId: t.transactionId,
          address: t.address,
          title: t.title,
          date: t.dueDate,
          priority: t.priority,
          taskId: t.id,
        })),
        ...keyDates.map((k) => ({
          kind: 'keyDate' as const,
          transactionId: k.transactionId,
          address: k.address,
          title: k.label ?? k.keyDateType,
          date: k.dateValue,
          priority: null,
          keyDateType: k.keyDateType,
        })),
      ],
      today,
      limit,
    );
    return { body: { data, asOf: today } };
  },
});
