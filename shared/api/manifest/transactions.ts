/** Manifest: the deal core of spec "Transactions" (list, resolve, read, status, notes, activity, apply). */
import * as z from '#api/zod';
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
    schemas: () => ({
      query: z.object({
        q: z.optional(z.string().check(z.maxLength(200))),
        status: z.optional(z.string().check(z.maxLength(100))),
        page: z._default(int32({ min: 1, max: 10_000 }), 1),
        pageSize: z._default(int32({ min: 1, max: 100 }), 25),
      }),
    }),
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
    schemas: () => ({
      body: z.object({
        extractionJobId: uuid(),
        transactionId: z.nullish(z.string()),
        transactionType: z.nullish(z.enum(['Sale', 'Purchase', 'Listing'])),
        side: z.nullish(z.enum(['Buyer', 'Seller'])),
        /** Contract field name → value (null clears); validated per field in shared/domain/apply-extraction.ts. */
        overrides: z.nullish(z.record(z.string(), z.unknown())),
      }),
    }),
    availability: implemented,
  },
  {
    operationId: 'resolveTransactions',
    method: 'GET',
    path: '/api/v1/transactions/resolve',
    access: 'read',
    idempotent: false,
    group: 'transactions',
    summary: 'Ranked matches of a free-text property address.',
    schemas: () => ({
      query: z.object({
        property: z.string().check(z.trim(), z.minLength(1), z.maxLength(300)),
        status: z.optional(z.string().check(z.maxLength(100))),
        limit: z._default(int32({ min: 1, max: 25 }), 3),
      }),
    }),
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
    schemas: () => ({ path: txnPath }),
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
    schemas: () => ({
      path: txnPath,
      body: z.object({
        type: z.string().check(z.trim(), z.minLength(1), z.maxLength(64)),
        summary: z.string().check(z.trim(), z.minLength(1), z.maxLength(500)),
        details: z.nullish(z.string().check(z.maxLength(10_000))),
      }),
    }),
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
    schemas: () => ({
      path: txnPath,
      body: z.object({ status: z.nullable(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))) }),
    }),
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
    schemas: () => ({ path: txnPath, body: z.object({ notes: z.nullable(z.string().check(z.maxLength(50_000))) }) }),
    availability: implemented,
  },
];
