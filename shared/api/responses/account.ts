/**
 * Response schemas of the organization account's lifecycle (spec "Organization account"): workspace deletion with a
 * grace period (shared/use-cases/workspace-deletion.ts) and workspace export delivered by email
 * (shared/use-cases/workspace-export.ts `exportView`).
 */
import * as z from '#api/zod';
import { id, nullableString, resource, timestamp } from '#api/responses/common';

const deletionStatusShape = {
  scheduled: z.boolean(),
  /** `scheduled` (cancellable) or `purging`; null when nothing is scheduled. */
  state: z.nullable(z.enum(['scheduled', 'purging'])),
  requestedAt: z.nullable(timestamp()),
  /** When the purge falls due. */
  dueAt: z.nullable(timestamp()),
  gracePeriodDays: z.int(),
  gracePeriodSeconds: z.int(),
  isOwner: z.boolean(),
  /** Why no purge will run although the deletion is scheduled (its schedule could not be created: cancel, then request again); null otherwise. */
  error: nullableString(),
};

export const DeletionStatus = resource(
  'DeletionStatus',
  'Whether workspace deletion is scheduled, when the purge falls due, the grace period (days and seconds) and whether the caller is the owner.',
  z.object(deletionStatusShape),
);

/** `POST /account/deletion/request`: the status, whether one was already scheduled, and whether the cancel link was emailed. */
export const deletionRequestResponse = () =>
  z.object({ data: z.object({ ...deletionStatusShape, alreadyScheduled: z.boolean(), emailed: z.boolean() }) });

/** `POST /account/deletion/cancel`: `cancelled: false` when nothing was scheduled. */
export const deletionCancelResponse = () => z.object({ data: z.object({ cancelled: z.boolean() }) });

const exportShape = {
  exists: z.literal(true),
  exportId: id(),
  /** `expired` once a completed archive passed `expiresAt`. */
  state: z.enum(['building', 'completed', 'failed', 'expired']),
  expired: z.boolean(),
  requestedAt: timestamp(),
  completedAt: z.nullable(timestamp()),
  expiresAt: z.nullable(timestamp()),
  sizeBytes: z.nullable(z.int()),
  recordCount: z.nullable(z.int()),
  documentCount: z.nullable(z.int()),
  error: nullableString(),
  /** The archive goes by email, never in a response. */
  delivery: z.literal('email'),
};

export const WorkspaceExport = resource('WorkspaceExport', 'The state of a workspace export; the archive itself is delivered by email.', z.object(exportShape));

/** `GET /account/export/latest`: the latest export, or `exists: false` before any. */
export const latestExportResponse = () => z.object({ data: z.union([WorkspaceExport, z.object({ exists: z.literal(false) })]) });

/** `POST /account/export/request`: the export started, or the one still building with `alreadyRunning: true`. */
export const exportRequestResponse = () => z.object({ data: z.object({ ...exportShape, alreadyRunning: z.boolean() }) });
