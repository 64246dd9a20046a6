/**
 * `PATCH /api/v1/transactions/{transactionId}/key-dates/{keyDateType}`: changes one existing key date
 * (`newValue`, `source`, `calculationNotes`); linked tasks move with it.
 */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { calendarDate, uuid } from '#api/params';
import { keyDateType } from '#api/schemas/key-dates';
import { updateKeyDate as update } from '#use-cases/key-dates';
import { dataOf } from '#api/responses/common';
import { KeyDate } from '#api/responses/deals';

export default defineOperation({
  operationId: 'updateKeyDate',
  method: 'PATCH',
  path: '/api/v1/transactions/{transactionId}/key-dates/{keyDateType}',
  access: 'draft',
  summary: 'Changes one key date; linked tasks move with it.',
  /** Moves the deal's reminders that follow a key date it changes (their schedules). */
  response: () => dataOf(KeyDate),
  schemas: () => ({
    path: z.object({ transactionId: uuid(), keyDateType: keyDateType() }),
    body: z.object({
      newValue: z.nullish(calendarDate()),
      source: z.nullish(z.string().check(z.maxLength(200))),
      calculationNotes: z.nullish(z.string().check(z.maxLength(2000))),
    }),
  }),
  example: { body: { newValue: '2027-01-15', source: 'Amendment 1', calculationNotes: 'Closing moved by the parties' } },
  handler: async ({ path, body }, { principal, now }) => ({
    body: {
      data: await update(
        principal,
        path.transactionId,
        path.keyDateType,
        { dateValue: body.newValue, source: body.source, calculationNotes: body.calculationNotes },
        now,
      ),
    },
  }),
});
