/**
 * Rules of the workspace lifecycle (spec "States and transitions", Organization rows) where the spec is silent and
 * this service decides (docs/workspace-lifecycle.md): the grace period, the freeze, export expiry.
 */
import { Conflict } from '#domain/errors';

/** Days between a deletion request and the purge (the grace period). */
export const DELETION_GRACE_DAYS = 7;
/** The grace period in seconds. */
export const DELETION_GRACE_SECONDS = DELETION_GRACE_DAYS * 86_400;

/** Seconds an export archive (and its emailed link) stays available after it is built: 24 hours. */
export const EXPORT_TTL_SECONDS = 86_400;
/** A `building` export older than this (ms) is presumed dead (its worker gave up) and no longer blocks a new one. */
export const EXPORT_STALE_MS = 60 * 60_000;
/** Seconds between an export request and its build (one-time schedules have minute precision). */
export const EXPORT_START_DELAY_SECONDS = 60;

/**
 * `seconds` after `now`, cut to the whole second, as EventBridge Scheduler's one-time `at(...)` wants it
 * (`yyyy-mm-ddThh:mm:ss`, read in the schedule's time zone, here UTC) and as ISO 8601 UTC (`…Z`).
 */
export function utcSecondsAfter(now: Date, seconds: number): { at: string; iso: string } {
  const at = new Date(Math.floor(now.getTime() / 1000) * 1000 + seconds * 1000).toISOString().slice(0, 19);
  return { at, iso: `${at}Z` };
}

/**
 * A write to a workspace scheduled for deletion: a clash with the workspace's state, on `workspace` (a 422 naming
 * it, or 409 on an operation marked (IK); shared/http/errors.ts). The message names the scheduled deletion and how
 * to lift it.
 */
export class WorkspaceFrozen extends Conflict {
  /** @param dueAt when the purge falls due (ISO) */
  constructor(readonly dueAt: string) {
    super(
      `This workspace is scheduled for deletion at ${dueAt} and accepts no changes until then. ` +
        'The owner can cancel the deletion with POST /api/v1/account/deletion/cancel; reads still work.',
      { workspace: `is scheduled for deletion at ${dueAt} and accepts no changes; the owner can cancel the deletion` },
    );
  }
}

/**
 * The freeze: while deletion is scheduled, every operation but reads (GET) and those marked `whileFrozen`
 * (deletion cancel and status, export request) is refused.
 * @param frozenUntil the purge's due time when frozen, else undefined
 * @throws WorkspaceFrozen when the operation is a write and the workspace is frozen
 */
export function assertWritable(frozenUntil: string | undefined, op: { method: string; whileFrozen: boolean }): void {
  if (frozenUntil && op.method !== 'GET' && !op.whileFrozen) throw new WorkspaceFrozen(frozenUntil);
}

/** An export's state as `GET /account/export/latest` reports it: `expired` once `expiresAt` is past `now`. */
export function reportedExportState(state: 'building' | 'completed' | 'failed', expiresAt: string | null, now: Date): 'building' | 'completed' | 'failed' | 'expired' {
  return state === 'completed' && expiresAt !== null && Date.parse(expiresAt) <= now.getTime() ? 'expired' : state;
}
