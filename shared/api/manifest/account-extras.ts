/**
 * Manifest: spec "Organization (own workspace)" lifecycle rows served by the account function but not
 * built yet: workspace deletion (request, cancel, status), workspace export (latest, request), device
 * registration and notifications. See spec "States and transitions" for deletion and export. (Team
 * members and transaction statuses are in `account.ts`.)
 */
import * as z from '#api/zod';
import type { OperationSpec } from '#api/types';
import { boolParam, int32 } from '#api/params';

const planned = { status: 'planned', issue: 'not yet filed (account lifecycle)' } as const;

export const accountExtrasOperations: OperationSpec[] = [
  {
    operationId: 'requestAccountDeletion',
    method: 'POST',
    path: '/api/v1/account/deletion/request',
    access: 'actions',
    idempotent: false,
    group: 'account',
    summary: 'Schedules workspace deletion (owner only; confirmName must match the workspace name).',
    schemas: () => ({ body: z.object({ confirmName: z.nullable(z.string().check(z.maxLength(200))) }) }),
    availability: planned,
  },
  {
    operationId: 'cancelAccountDeletion',
    method: 'POST',
    path: '/api/v1/account/deletion/cancel',
    access: 'actions',
    idempotent: false,
    group: 'account',
    summary: 'Cancels a scheduled workspace deletion (owner only).',
    schemas: () => ({}),
    availability: planned,
  },
  {
    operationId: 'getAccountDeletionStatus',
    method: 'GET',
    path: '/api/v1/account/deletion/status',
    access: 'read',
    idempotent: false,
    group: 'account',
    summary: 'Whether deletion is scheduled, when the purge falls due, and isOwner.',
    schemas: () => ({}),
    availability: planned,
  },
  {
    operationId: 'getLatestAccountExport',
    method: 'GET',
    path: '/api/v1/account/export/latest',
    access: 'read',
    idempotent: false,
    group: 'account',
    summary: 'State of the latest workspace export (owner only).',
    schemas: () => ({}),
    availability: planned,
  },
  {
    operationId: 'requestAccountExport',
    method: 'POST',
    path: '/api/v1/account/export/request',
    access: 'actions',
    idempotent: false,
    group: 'account',
    summary: 'Starts a workspace export delivered by email (owner only).',
    schemas: () => ({}),
    availability: planned,
  },
  {
    operationId: 'registerDevice',
    method: 'POST',
    path: '/api/v1/devices/register',
    access: 'actions',
    idempotent: false,
    group: 'account',
    summary: 'Registers or refreshes a device of the authenticated user.',
    schemas: () => ({
      body: z.object({
        appVersion: z.nullish(z.string().check(z.maxLength(50))),
        installationId: z.nullish(z.string().check(z.maxLength(200))),
        platform: z.nullish(z.string().check(z.maxLength(50))),
        pushToken: z.nullish(z.string().check(z.maxLength(4096))),
        capabilities: z.nullish(z.array(z.string().check(z.maxLength(100))).check(z.maxLength(100))),
        permissions: z.nullish(z.record(z.string(), z.unknown())),
      }),
    }),
    availability: planned,
  },
  {
    operationId: 'listNotifications',
    method: 'GET',
    path: '/api/v1/notifications',
    access: 'read',
    idempotent: false,
    group: 'account',
    summary: "The calling user's notifications.",
    schemas: () => ({
      query: z.object({
        limit: z.optional(int32({ min: 1, max: 100 })),
        /** Type not shown in the spec; a boolean here. */
        unreadOnly: z.optional(boolParam()),
      }),
    }),
    availability: planned,
    designedHere: true,
  },
  {
    operationId: 'getUnreadNotificationCount',
    method: 'GET',
    path: '/api/v1/notifications/unread-count',
    access: 'read',
    idempotent: false,
    group: 'account',
    summary: "Count of the calling user's unread notifications.",
    schemas: () => ({}),
    availability: planned,
  },
];
