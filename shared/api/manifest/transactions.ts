/** Manifest: the deal core of spec "Transactions" (list, resolve, read, status, notes, activity, apply). */
import { z } from 'zod';
import type { OperationSpec } from '#api/types';
import { int32, uuid } from '#api/params';

const implemented = { status: 'implemented' } as const;
const txnPath = z.object({ transactionId: uuid() });

export const transactionsOperations: OperationSpec[] = [
  {
    operationId: 'listTransactions',
    method: 'GET',
    path: '/api/v1/transactions',
    access: 'read',
    idempotent: false,
    group: 'transactions',
    summary: 'Deals, most recently updated first, filtered by text and status.',
    schemas: {
      query: z.object({
        q: z.string().max(200).optional(),
        status: z.string().max(100).optional(),
        page: int32({ min: 1, max: 10_000 }).default(1),
        pageSize: int32({ min: 1, max: 100 }).default(25),
      }),
    },
    availability: implemented,
  },
  {
    operationId: 'applyExtraction',
    method: 'POST',
    path: '/api/v1/transactions',
    access: 'actions',
    idempotent: false,
    group: 'transactions',
    summary: 'Applies an extraction result: creates a deal or attaches to transactionId.',
    schemas: {
      body: z.object({
        extractionJobId: uuid(),
        transactionId: z.string().nullish(),
        transactionType: z.enum(['Sale', 'Purchase', 'Listing']).nullish(),
        side: z.enum(['Buyer', 'Seller']).nullish(),
        overrides: z.record(z.string(), z.unknown()).nullish(),
      }),
    },
    availability: { status: 'planned', issue: '#3 extraction pipeline' },
  },
  {
    operationId: 'resolveTransactions',
    method: 'GET',
    path: '/api/v1/transactions/resolve',
    access: 'read',
    idempotent: false,
    group: 'transactions',
    summary: 'Ranked matches of a free-text property address.',
    schemas: {
      query: z.object({
        property: z.string().trim().min(1).max(300),
        status: z.string().max(100).optional(),
        limit: int32({ min: 1, max: 25 }).default(3),
      }),
    },
    availability: implemented,
  },
  {
    operationId: 'getTransaction',
    method: 'GET',
    path: '/api/v1/transactions/{transactionId}',
    access: 'read',
    idempotent: false,
    group: 'transactions',
    summary: 'One deal with its key dates, open tasks and recent activity (one item-collection query).',
    schemas: { path: txnPath },
    availability: implemented,
  },
  {
    operationId: 'addTransactionActivity',
    method: 'POST',
    path: '/api/v1/transactions/{transactionId}/activity',
    access: 'draft',
    idempotent: false,
    group: 'transactions',
    summary: "Appends an entry to the deal's activity log.",
    schemas: {
      path: txnPath,
      body: z.object({
        type: z.string().trim().min(1).max(64),
        summary: z.string().trim().min(1).max(500),
        details: z.string().max(10_000).nullish(),
      }),
    },
    availability: implemented,
  },
  {
    operationId: 'updateTransactionStatus',
    method: 'PATCH',
    path: '/api/v1/transactions/{transactionId}/status',
    access: 'actions',
    idempotent: false,
    group: 'transactions',
    summary: "Sets a status of the organization's vocabulary and runs its cascade.",
    schemas: { path: txnPath, body: z.object({ status: z.string().trim().min(1).max(100).nullable() }) },
    availability: implemented,
  },
  {
    operationId: 'updateTransactionNotes',
    method: 'PATCH',
    path: '/api/v1/transactions/{transactionId}/notes',
    access: 'draft',
    idempotent: false,
    group: 'transactions',
    summary: 'Replaces the general notes; null clears them.',
    schemas: { path: txnPath, body: z.object({ notes: z.string().max(50_000).nullable() }) },
    availability: implemented,
  },
];
