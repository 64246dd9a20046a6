/** Manifest: spec "Meta" (health, catalog, next actions, usage). */
import * as z from '#api/zod';
import type { OperationSpec } from '#api/types';
import { int32, uuid } from '#api/params';

const implemented = { status: 'implemented' } as const;

export const metaOperations: OperationSpec[] = [
  {
    operationId: 'getHealth',
    method: 'GET',
    path: '/api/v1/health',
    access: 'read',
    idempotent: false,
    group: 'meta',
    summary: 'Verifies the key and probes the table.',
    schemas: () => ({}),
    availability: implemented,
  },
  {
    operationId: 'getCatalog',
    method: 'GET',
    path: '/api/v1/catalog',
    access: 'read',
    idempotent: false,
    group: 'meta',
    summary: 'Every operation with whether the calling key can call it.',
    schemas: () => ({}),
    availability: implemented,
  },
  {
    operationId: 'listNextActions',
    method: 'GET',
    path: '/api/v1/next-actions',
    access: 'read',
    idempotent: false,
    group: 'meta',
    summary: 'Ranked feed of open tasks and upcoming key dates.',
    schemas: () => ({
      query: z.object({ limit: z.optional(int32({ min: 1, max: 100 })), transactionId: z.optional(uuid()) }),
    }),
    availability: implemented,
  },
  {
    operationId: 'getUsage',
    method: 'GET',
    path: '/api/v1/usage',
    access: 'read',
    idempotent: false,
    group: 'meta',
    summary: "Call volume, daily breakdown, top operations and error rate of the calling key.",
    schemas: () => ({ query: z.object({ days: z.optional(int32({ min: 1, max: 90 })) }) }),
    availability: implemented,
  },
];
