/**
 * Manifest: deal extras of spec "Transactions" served by the transactions function but not built yet:
 * open contingencies, the client-portal link, deadline reminders and status summaries.
 */
import * as z from '#api/zod';
import type { OperationSpec } from '#api/types';
import { dateTime, int32, uuid } from '#api/params';

const planned = { status: 'planned', issue: 'not yet filed (deal extras)' } as const;
const txnPath = z.object({ transactionId: uuid() });

export const transactionsExtrasOperations: OperationSpec[] = [
  {
    operationId: 'listTransactionContingencies',
    method: 'GET',
    path: '/api/v1/transactions/{transactionId}/contingencies',
    access: 'read',
    idempotent: false,
    group: 'transactions',
    summary: "The deal's open contingencies.",
    schemas: () => ({ path: txnPath }),
    availability: planned,
  },
  {
    operationId: 'getTransactionPortalLink',
    method: 'GET',
    path: '/api/v1/transactions/{transactionId}/portal-link',
    access: 'read',
    idempotent: false,
    group: 'transactions',
    summary: "The deal's active client-portal link.",
    schemas: () => ({ path: txnPath }),
    availability: planned,
  },
  {
    operationId: 'createTransactionReminder',
    method: 'POST',
    path: '/api/v1/transactions/{transactionId}/reminders',
    access: 'actions',
    idempotent: false,
    group: 'transactions',
    summary: 'Schedules a deadline reminder email on the deal.',
    schemas: () => ({
      path: txnPath,
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
    availability: planned,
  },
  {
    operationId: 'saveTransactionStatusSummary',
    method: 'POST',
    path: '/api/v1/transactions/{transactionId}/status-summary',
    access: 'draft',
    idempotent: false,
    group: 'transactions',
    summary: 'Saves a status summary of the deal for an audience.',
    schemas: () => ({
      path: txnPath,
      body: z.object({
        audience: z.nullable(z.string().check(z.maxLength(100))),
        bodyMarkdown: z.nullable(z.string().check(z.maxLength(50_000))),
        subject: z.nullable(z.string().check(z.maxLength(998))),
        keyPointBullets: z.nullable(z.array(z.string().check(z.maxLength(1000))).check(z.maxLength(50))),
      }),
    }),
    availability: planned,
  },
];
