/**
 * Manifest: deal extras of spec "Transactions" served by the transactions function but not built yet:
 * open contingencies, the client-portal link, deadline reminders and status summaries.
 */
import { z } from 'zod';
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
    schemas: { path: txnPath },
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
    schemas: { path: txnPath },
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
    schemas: {
      path: txnPath,
      body: z.object({
        daysBeforeReminder: int32({ min: 0, max: 365 }).nullable(),
        deadlineDate: dateTime().nullable(),
        deadlineType: z.string().max(100).nullable(),
        emailTemplateId: uuid().nullable(),
        milestoneId: uuid().nullable(),
        note: z.string().max(5000).nullable(),
        recipientEmails: z.string().max(4000).nullable(),
        recipientRoles: z.string().max(1000).nullable(),
        reminderTimeOfDay: z.string().max(20).nullable(),
      }),
    },
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
    schemas: {
      path: txnPath,
      body: z.object({
        audience: z.string().max(100).nullable(),
        bodyMarkdown: z.string().max(50_000).nullable(),
        subject: z.string().max(998).nullable(),
        keyPointBullets: z.array(z.string().max(1000)).max(50).nullable(),
      }),
    },
    availability: planned,
  },
];
