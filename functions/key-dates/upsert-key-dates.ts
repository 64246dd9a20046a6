/**
 * `POST /api/v1/transactions/{transactionId}/key-dates`: bulk upsert. A type appears at most once per
 * transaction: writing it again updates it; the same type twice in one request is a 422, and so is a type outside
 * the vocabulary (shared/domain/key-date-types.ts) unless `isCustom` is true.
 */
import * as z from '#api/zod';
import { defineOperation } from '#api/operation';
import { calendarDate, uuidPath } from '#api/params';
import { keyDateType } from '#api/schemas/key-dates';
import { keyDateTypeProblem } from '#domain/key-date-types';
import { upsertKeyDates as upsert } from '#use-cases/key-dates';
import { listOf } from '#api/responses/common';
import { KeyDate } from '#api/responses/deals';

export default defineOperation({
  operationId: 'upsertKeyDates',
  method: 'POST',
  path: '/api/v1/transactions/{transactionId}/key-dates',
  access: 'draft',
  summary: 'Bulk upsert: a type appears at most once per transaction; writing it again updates it.',
  /** Moves the deal's reminders that follow a key date it changes (their schedules). */
  response: () => listOf(KeyDate),
  schemas: () => ({
    path: uuidPath('transactionId'),
    body: z.object({
      keyDates: z
        .array(
          z
            .object({
              keyDateType: keyDateType(),
              dateValue: calendarDate(),
              isCustom: z.nullish(z.boolean()),
              label: z.nullish(z.string().check(z.maxLength(200))),
            })
            // A type outside the vocabulary is a typo unless the caller says it is custom (issue 25).
            .check(
              z.superRefine((kd, ctx) => {
                const problem = keyDateTypeProblem(kd.keyDateType, kd.isCustom);
                if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['keyDateType'], input: kd.keyDateType });
              }),
            ),
        )
        .check(z.minLength(1), z.maxLength(50)),
    }),
  }),
  example: { body: { keyDates: [{ keyDateType: 'ClosingDate', dateValue: '2027-01-08', label: 'TREC 20-18 ¶9' }] } },
  handler: async ({ path, body }, { principal, now }) => ({
    body: { data: await upsert(principal, path.transactionId, body.keyDates, now) },
  }),
});
