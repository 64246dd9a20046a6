/**
 * Workspace export (spec "States and transitions", Organization; "Limits": one at a time). The owner requests it;
 * a one-time schedule (requested through the outbox: shared/use-cases/schedule-requests.ts) runs the worker (functions/workspace-export) about a minute later, which reads every item of
 * the organization (GSI3 keys, then `BatchGetItem`), zips them as JSON with the uploaded document files, streaming
 * the archive into `exports/<orgId>/`, and emails the owner a presigned download link that expires with the
 * archive. Neither the link nor the archive is ever in an API response. The worker's side (building the archive) is
 * shared/use-cases/workspace-export-build.ts, so the account API group does not bundle the archive code.
 */
import { randomUUID } from 'node:crypto';
import { getOrganization } from '#db/orgs';
import { getLatestExport, startExport, type WorkspaceExport } from '#db/workspace-exports';
import type { Principal } from '#db/api-keys';
import { scheduleRequestPut } from '#use-cases/schedule-requests';
import { EXPORT_START_DELAY_SECONDS, EXPORT_STALE_MS, reportedExportState, utcSecondsAfter } from '#domain/workspace-lifecycle';
import { Forbidden, NotFound } from '#domain/errors';

/** The export schedule's name. */
export const exportScheduleNameOf = (exportId: string) => `export-${exportId}`;

/** Entities left out of an archive: credentials, stored idempotent responses, the export record itself, search tokens (derived from the deals and contacts). */
export const EXCLUDED_ENTITIES: ReadonlySet<string> = new Set(['ApiKey', 'Idempotency', 'WorkspaceExport', 'DealSearchToken', 'ContactSearchToken']);
/** Storage attributes dropped from each record (keys, index keys, TTL). */
const STORAGE_ATTRIBUTE = /^(PK|SK|GSI\d+(PK|SK)|ttl)$/;
/** Attributes whose values are secrets (webhook signing secrets, routing tokens, password references). */
const SECRET_ATTRIBUTE = /secret|password|token/i;

/** An export as the API shows it (no link, no object key). */
export function exportView(e: WorkspaceExport | undefined, now: Date) {
  if (!e) return { exists: false as const };
  const state = reportedExportState(e.state, e.expiresAt, now);
  return {
    exists: true as const,
    exportId: e.exportId,
    state,
    expired: state === 'expired',
    requestedAt: e.requestedAt,
    completedAt: e.completedAt,
    expiresAt: e.expiresAt,
    sizeBytes: e.sizeBytes,
    recordCount: e.recordCount,
    documentCount: e.documentCount,
    error: e.error,
    delivery: 'email' as const,
  };
}

async function assertOwner(principal: Principal): Promise<void> {
  const org = await getOrganization(principal.orgId);
  if (!org) throw new NotFound('Organization');
  if (org.ownerUserId !== principal.userId) throw new Forbidden('Only the workspace owner can do this.');
}

/** The latest export (owner only). @throws Forbidden */
export async function latestExport(principal: Principal, now: Date) {
  await assertOwner(principal);
  return exportView(await getLatestExport(principal.orgId), now);
}

/**
 * Starts an export (`building`, with the `schedule.requested` event of its build in the same transaction; one the
 * outbox relay cannot create ends the export `failed` with an `error`), or returns the one building with
 * `alreadyRunning: true`.
 * @throws Forbidden (not the owner)
 */
export async function requestExport(principal: Principal, now: Date) {
  await assertOwner(principal);
  const e: WorkspaceExport = {
    exportId: randomUUID(),
    orgId: principal.orgId,
    state: 'building',
    requestedAt: now.toISOString(),
    requestedBy: principal.userId,
    completedAt: null,
    expiresAt: null,
    s3Key: null,
    sizeBytes: null,
    recordCount: null,
    documentCount: null,
    error: null,
  };
  const { at } = utcSecondsAfter(now, EXPORT_START_DELAY_SECONDS);
  const build = { name: exportScheduleNameOf(e.exportId), at, timezone: 'UTC', target: 'workspace-export' as const, payload: { orgId: e.orgId, exportId: e.exportId } };
  const started = await startExport(e, new Date(now.getTime() - EXPORT_STALE_MS), [scheduleRequestPut(principal, build, { kind: 'workspace_export', exportId: e.exportId }, now)]);
  if (!started.started) return { ...exportView(started.running, now), alreadyRunning: true };
  return { ...exportView(e, now), alreadyRunning: false };
}

/** A record as exported: storage attributes dropped, secret values replaced by `"[redacted]"`. */
export function exportRecord(item: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(item)) {
    if (STORAGE_ATTRIBUTE.test(k) || k.startsWith('rl') || k.startsWith('op_')) continue;
    out[k] = SECRET_ATTRIBUTE.test(k) && v !== null ? '[redacted]' : v;
  }
  return out;
}
