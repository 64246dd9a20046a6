/**
 * `POST /api/v1/transactions/{transactionId}/reminders`: schedules a deadline reminder email on the deal,
 * `daysBeforeReminder` days before the deadline at `reminderTimeOfDay` in the organization's time zone, to
 * `recipientRoles` and/or `recipientEmails` (comma-separated), written from `emailTemplateId` (default: the system
 * `key-date-reminder` template). With a `deadlineType` the deal has as a key date, it follows that key date.
 */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { dateTime, int32, uuid, uuidPath } from '#api/params';
import { dataOf } from '#api/responses/common';
import { Reminder } from '#api/responses/deals';
import { createReminder } from '#use-cases/reminders';

export default defineOperation({
  operationId: 'createTransactionReminder',
  method: 'POST',
  path: '/api/v1/transactions/{transactionId}/reminders',
  access: 'actions',
  summary: 'Schedules a deadline reminder email on the deal.',
  designedHere: true,
  schemas: () => ({
    path: uuidPath('transactionId'),
    body: z.object({
      daysBeforeReminder: z.nullable(int32({ min: 0, max: 365 })),
      deadlineDate: z.nullable(dateTime()),
      deadlineType: z.nullable(z.string().check(z.maxLength(100))),
      emailTemplateId: z.nullable(uuid()),
      milestoneId: z.nullable(uuid()),
      note: z.nullable(z.string().check(z.maxLength(5000))),
      recipientEmails: z.nullable(z.string().check(z.maxLength(4000))),
      recipientRoles: z.nullable(z.string().check(z.maxLength(1000))),
      reminderTimeOfDay: z.nullable(z.string().check(z.maxLength(20))),
    }),
  }),
  example: {
    body: {
      daysBeforeReminder: 3,
      deadlineDate: null,
      deadlineType: 'ClosingDate',
      emailTemplateId: null,
      milestoneId: null,
      note: 'Confirm the wiring instructions by phone.',
      recipientEmails: 'tc@example.com',
      recipientRoles: 'Buyer',
      reminderTimeOfDay: '09:00',
    },
  },
  response: () => dataOf(Reminder),
  /** `{data: Reminder}`, status `pending`. */
  handler: async ({ path, body }, { principal, now }) => ({ body: { data: await createReminder(principal, path.transactionId, body, now) } }),
});
