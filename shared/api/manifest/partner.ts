/**
 * Manifest: spec "Partner organizations (partner key only)" — `/api/v1/orgs/*`, callable only with an
 * `rsk_` partner key: list and provision organizations, read one, its entitlements and activity summary,
 * invite and remove seats. `orgId` is a plain string (spec "Conventions"); `userId` is a uuid.
 */
import * as z from '#api/zod';
import type { OperationSpec } from '#api/types';
import { int32, uuid } from '#api/params';

const planned = { status: 'planned', issue: 'not yet filed (partner tier)' } as const;
const orgId = () => z.string().check(z.minLength(1), z.maxLength(200));
const orgPath = z.object({ orgId: orgId() });

export const partnerOperations: OperationSpec[] = [
  {
    operationId: 'listPartnerOrgs',
    method: 'GET',
    path: '/api/v1/orgs',
    access: 'partner',
    idempotent: false,
    group: 'partner',
    summary: 'Organizations provisioned by the partner.',
    schemas: () => ({
      query: z.object({
        limit: z._default(int32({ min: 1, max: 100 }), 25),
        offset: z._default(int32({ min: 0 }), 0),
      }),
    }),
    availability: planned,
  },
  {
    operationId: 'createPartnerOrg',
    method: 'POST',
    path: '/api/v1/orgs',
    access: 'partner',
    idempotent: false,
    group: 'partner',
    summary: 'Provisions an organization with its owner.',
    schemas: () => ({
      body: z.object({
        name: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
        owner: z.object({
          email: z.string().check(z.trim(), z.minLength(1), z.maxLength(320)),
          firstName: z.string().check(z.trim(), z.maxLength(100)),
          lastName: z.string().check(z.trim(), z.maxLength(100)),
        }),
      }),
    }),
    availability: planned,
  },
  {
    operationId: 'getPartnerOrg',
    method: 'GET',
    path: '/api/v1/orgs/{orgId}',
    access: 'partner',
    idempotent: false,
    group: 'partner',
    summary: 'One provisioned organization.',
    schemas: () => ({ path: orgPath }),
    availability: planned,
  },
  {
    operationId: 'getPartnerOrgEntitlements',
    method: 'GET',
    path: '/api/v1/orgs/{orgId}/entitlements',
    access: 'partner',
    idempotent: false,
    group: 'partner',
    summary: "The organization's plan, seats and AI fair-use pool state.",
    schemas: () => ({ path: orgPath }),
    availability: planned,
  },
  {
    operationId: 'getPartnerOrgSummary',
    method: 'GET',
    path: '/api/v1/orgs/{orgId}/summary',
    access: 'partner',
    idempotent: false,
    group: 'partner',
    summary: "The organization's active deals, tasks due and last activity.",
    schemas: () => ({ path: orgPath }),
    availability: planned,
  },
  {
    operationId: 'invitePartnerOrgUser',
    method: 'POST',
    path: '/api/v1/orgs/{orgId}/users',
    access: 'partner',
    idempotent: false,
    group: 'partner',
    summary: 'Invites a user to a seat of the organization.',
    schemas: () => ({
      path: orgPath,
      body: z.object({
        email: z.string().check(z.trim(), z.minLength(1), z.maxLength(320)),
        firstName: z.nullable(z.string().check(z.trim(), z.maxLength(100))),
        lastName: z.nullable(z.string().check(z.trim(), z.maxLength(100))),
        role: z.nullable(z.string().check(z.trim(), z.maxLength(50))),
      }),
    }),
    availability: planned,
  },
  {
    operationId: 'removePartnerOrgUser',
    method: 'DELETE',
    path: '/api/v1/orgs/{orgId}/users/{userId}',
    access: 'partner',
    idempotent: false,
    group: 'partner',
    summary: "Removes a user's seat from the organization.",
    schemas: () => ({ path: z.object({ orgId: orgId(), userId: uuid() }) }),
    availability: planned,
  },
];
