/**
 * Manifest: spec "Proposals" — AI proposals awaiting human approval: list, read with evidence, approve,
 * edit the proposed payload, reject. Proposal ids (`id`) are uuids.
 */
import * as z from '#api/zod';
import type { OperationSpec } from '#api/types';
import { int32, uuid } from '#api/params';

const planned = { status: 'planned', issue: 'not yet filed (proposals)' } as const;
const idPath = z.object({ id: uuid() });

export const proposalsOperations: OperationSpec[] = [
  {
    operationId: 'listProposals',
    method: 'GET',
    path: '/api/v1/proposals',
    access: 'read',
    idempotent: false,
    group: 'proposals',
    summary: 'AI proposals, filtered by status and deal.',
    schemas: () => ({
      query: z.object({
        limit: z.optional(int32({ min: 1, max: 100 })),
        offset: z.optional(int32({ min: 0 })),
        status: z.optional(z.string().check(z.maxLength(50))),
        transactionId: z.optional(uuid()),
      }),
    }),
    availability: planned,
  },
  {
    operationId: 'getProposal',
    method: 'GET',
    path: '/api/v1/proposals/{id}',
    access: 'read',
    idempotent: false,
    group: 'proposals',
    summary: 'One proposal with its evidence.',
    schemas: () => ({ path: idPath }),
    availability: planned,
  },
  {
    operationId: 'approveProposal',
    method: 'POST',
    path: '/api/v1/proposals/{id}/approve',
    access: 'actions',
    idempotent: false,
    group: 'proposals',
    summary: 'Approves a proposal and applies it.',
    schemas: () => ({ path: idPath }),
    availability: planned,
  },
  {
    operationId: 'updateProposalPayload',
    method: 'PUT',
    path: '/api/v1/proposals/{id}/payload',
    access: 'actions',
    idempotent: false,
    group: 'proposals',
    summary: 'Edits the proposed value before approval.',
    schemas: () => ({ path: idPath, body: z.object({ parameters: z.json() }) }),
    availability: planned,
  },
  {
    operationId: 'rejectProposal',
    method: 'POST',
    path: '/api/v1/proposals/{id}/reject',
    access: 'actions',
    idempotent: false,
    group: 'proposals',
    summary: 'Rejects a proposal with an optional reason.',
    schemas: () => ({ path: idPath, body: z.object({ reason: z.nullable(z.string().check(z.maxLength(2000))) }) }),
    availability: planned,
  },
];
