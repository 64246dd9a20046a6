/** Manifest: key dates, per transaction (spec "Transactions") and across transactions (spec "Key dates"). */
import * as z from '#api/zod';
import type { OperationSpec } from '#api/types';
import { calendarDate, int32, uuid } from '#api/params';

const implemented = { status: 'implemented' } as const;
const txnPath = z.object({ transactionId: uuid() });

/** Key-date type token: letters, digits, `_` and `-` (e.g. `ClosingDate`, `HOA_Docs_Due`). */
export const keyDateType = () =>
  z
    .string()
    .check(
      z.minLength(1),
      z.maxLength(64),
      z.regex(/^[A-Za-z][A-Za-z0-9_-]*$/, 'must be a key-date type token (letters, digits, _ or -)'),
    );

export const keyDatesOperations: OperationSpec[] = [
  {
    operationId: 'listKeyDates',
    method: 'GET',
    path: '/api/v1/transactions/{transactionId}/key-dates',
    access: 'read',
    idempotent: false,
    group: 'key-dates',
    summary: "A transaction's key dates, soonest first.",
    schemas: () => ({ path: txnPath }),
    availability: implemented,
  },
  {
    operationId: 'upsertKeyDates',
    method: 'POST',
    path: '/api/v1/transactions/{transactionId}/key-dates',
    access: 'draft',
    idempotent: false,
    group: 'key-dates',
    summary: 'Bulk upsert: a type appears at most once per transaction; writing it again updates it.',
    schemas: () => ({
      path: txnPath,
      body: z.object({
        keyDates: z
          .array(
            z.object({
              keyDateType: keyDateType(),
              dateValue: calendarDate(),
              isCustom: z.nullish(z.boolean()),
              label: z.nullish(z.string().check(z.maxLength(200))),
            }),
          )
          .check(z.minLength(1), z.maxLength(50)),
      }),
    }),
    availability: implemented,
  },
  {
    operationId: 'updateKeyDate',
    method: 'PATCH',
    path: '/api/v1/transactions/{transactionId}/key-dates/{keyDateType}',
    access: 'draft',
    idempotent: false,
    group: 'key-dates',
    summary: 'Changes one key date; linked tasks move with it.',
    schemas: () => ({
      path: z.object({ transactionId: uuid(), keyDateType: keyDateType() }),
      body: z.object({
        newValue: z.nullish(calendarDate()),
        source: z.nullish(z.string().check(z.maxLength(200))),
        calculationNotes: z.nullish(z.string().check(z.maxLength(2000))),
      }),
    }),
    availability: implemented,
  },
  {
    operationId: 'listUpcomingKeyDates',
    method: 'GET',
    path: '/api/v1/key-dates/upcoming',
    access: 'read',
    idempotent: false,
    group: 'key-dates',
    summary: 'Key dates across all transactions falling within the horizon, soonest first.',
    schemas: () => ({
      query: z.object({
        horizonDays: z._default(int32({ min: 0, max: 365 }), 14),
        limit: z._default(int32({ min: 1, max: 100 }), 25),
      }),
    }),
    availability: implemented,
  },
];
