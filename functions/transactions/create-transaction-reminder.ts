/** `POST /api/v1/transactions/{transactionId}/reminders`: schedules a deadline reminder email on the deal. */
import * as z from '#api/zod';
import { plannedOperation } from '#api/operation';
import { dateTime, int32, uuid, uuidPath } from '#api/params';

export default plannedOperation({
  operationId: 'createTransactionReminder',
  method: 'POST',
  path: '/api/v1/transactions/{transactionId}/reminders',
  access: 'actions',
  summary: 'Schedules a deadline reminder email on the deal.',
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
  planned: 'issue #11 (deal workspace)',
});
