/**
 * Manifest: spec "Organization (own workspace)" lifecycle rows served by the account function but not
 * built yet: workspace deletion (request, cancel, status), workspace export (latest, request), device
 * registration and notifications. See spec "States and transitions" for deletion and export. (Team
 * members and transaction statuses are in `account.ts`.)
 */
import { z } from 'zod';
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
    schemas: { body: z.object({ confirmName: z.string().max(200).nullable() }) },
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
    schemas: {},
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
    schemas: {},
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
    schemas: {},
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
    schemas: {},
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
    schemas: {
      body: z.object({
        appVersion: z.string().max(50).nullish(),
        installationId: z.string().max(200).nullish(),
        platform: z.string().max(50).nullish(),
        pushToken: z.string().max(4096).nullish(),
        capabilities: z.array(z.string().max(100)).max(100).nullish(),
        permissions: z.record(z.string(), z.unknown()).nullish(),
      }),
    },
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
    schemas: {
      query: z.object({
        limit: int32({ min: 1, max: 100 }).optional(),
        /** Type not shown in the spec; a boolean here. */
        unreadOnly: boolParam().optional(),
      }),
    },
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
    schemas: {},
    availability: planned,
  },
];
