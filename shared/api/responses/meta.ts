/**
 * Response schemas of the meta and organization reads the spec shows (`OrgHealth`, `OrgCatalog`, usage) and of
 * the organization's vocabulary and users.
 */
import * as z from '#api/zod';
import { day, resource, timestamp } from '#api/responses/common';

const scopes = () => z.array(z.enum(['read', 'draft', 'actions']));

export const OrgHealth = resource(
  'OrgHealth',
  'Spec "Health response": verifies the key and the database.',
  z.object({ ok: z.boolean(), organizationId: z.string(), scopes: scopes(), databaseReachable: z.boolean(), databaseError: z.nullable(z.string()), apiVersion: z.string() }),
);

export const OrgCatalog = resource(
  'OrgCatalog',
  'Spec "Catalog response": every operation, with `callable` computed against the calling key (and why not).',
  z.object({
    data: z.array(
      z.object({
        operation: z.string(),
        method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
        path: z.string(),
        scope: z.enum(['read', 'draft', 'actions', 'partner']),
        idempotent: z.boolean(),
        callable: z.boolean(),
        reason: z.optional(z.enum(['partner_only', 'insufficient_scope', 'not_implemented'])),
      }),
    ),
    scopes: scopes(),
  }),
);

export const Usage = resource(
  'Usage',
  'Call volume of the calling key over `days` days (UTC): totals, daily breakdown, top operations, error rate 0–1.',
  z.object({
    days: z.int(),
    totalCalls: z.int(),
    errorCount: z.int(),
    errorRate: z.number(),
    daily: z.array(z.object({ date: day(), calls: z.int(), errors: z.int() })),
    topOperations: z.array(z.object({ operation: z.string(), calls: z.int() })),
  }),
);

export const TransactionStatus = resource(
  'TransactionStatus',
  'A status of the organization\'s vocabulary, in display order.',
  z.object({ name: z.string(), category: z.string(), description: z.nullable(z.string()), order: z.int(), isTerminal: z.boolean() }),
);

export const OrgUser = resource(
  'OrgUser',
  'A member of the organization (assignable to tasks).',
  z.object({ userId: z.string(), email: z.string(), firstName: z.nullable(z.string()), lastName: z.nullable(z.string()), role: z.enum(['owner', 'admin', 'agent', 'coordinator']), createdAt: timestamp() }),
);
