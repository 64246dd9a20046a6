/**
 * Workspace export (spec "States and transitions", Organization; "Limits": one at a time). The owner requests it;
 * a one-time schedule runs the worker (functions/workspace-export) about a minute later, which reads every item of
 * the organization (GSI3 keys, then `BatchGetItem`), zips them as JSON with the uploaded document files (fflate),
 * stores the archive under `exports/<orgId>/`, and emails the owner a presigned download link that expires with the
 * archive. Neither the link nor the archive is ever in an API response.
 */
import { randomUUID } from 'node:crypto';
import { DateTime } from 'luxon';
import { strToU8, zipSync, type Zippable } from 'fflate';
import { getOrganization } from '#db/orgs';
import { finishExport, getLatestExport, startExport, type WorkspaceExport } from '#db/workspace-exports';
import { allOrgItemKeys, getItems } from '#db/org-items';
import type { Principal } from '#db/api-keys';
import { exportArchiveKey, getObjectBytes, presignGet, putObject } from '#ports/blob-store';
import { scheduler } from '#ports/scheduler';
import { EXPORT_START_DELAY_SECONDS, EXPORT_STALE_MS, EXPORT_TTL_SECONDS, reportedExportState } from '#domain/workspace-lifecycle';
import { Forbidden, NotFound, Unavailable } from '#domain/errors';
import { logger } from '#observability/powertools';
import { ownerAddress, sendWorkspaceNotice } from '#use-cases/workspace-mail';

/** The export schedule's name. */
export const exportScheduleNameOf = (exportId: string) => `export-${exportId}`;

/** Entities left out of an archive: credentials, stored idempotent responses, the export record itself. */
const EXCLUDED_ENTITIES = new Set(['ApiKey', 'Idempotency', 'WorkspaceExport']);
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
 * Starts an export, or returns the one building with `alreadyRunning: true`.
 * @throws Forbidden (not the owner); Unavailable when the scheduler refuses (the export is marked failed)
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
  const started = await startExport(e, new Date(now.getTime() - EXPORT_STALE_MS));
  if (!started.started) return { ...exportView(started.running, now), alreadyRunning: true };
  const at = DateTime.fromJSDate(now).toUTC().plus({ seconds: EXPORT_START_DELAY_SECONDS }).toFormat("yyyy-MM-dd'T'HH:mm:ss");
  try {
    await (await scheduler()).create({ name: exportScheduleNameOf(e.exportId), at, timezone: 'UTC', target: 'workspace-export', payload: { orgId: e.orgId, exportId: e.exportId } });
  } catch (err) {
    await finishExport(e.orgId, e.exportId, { ...unfinished, state: 'failed', error: 'The export could not be scheduled.' });
    throw new Unavailable('The export could not be scheduled; retry shortly.', { cause: err });
  }
  return { ...exportView(e, now), alreadyRunning: false };
}

const unfinished = { completedAt: null, expiresAt: null, s3Key: null, sizeBytes: null, recordCount: null, documentCount: null, error: null };

/** A record as exported: storage attributes dropped, secret values replaced by `"[redacted]"`. */
export function exportRecord(item: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(item)) {
    if (STORAGE_ATTRIBUTE.test(k) || k.startsWith('rl') || k.startsWith('op_')) continue;
    out[k] = SECRET_ATTRIBUTE.test(k) && v !== null ? '[redacted]' : v;
  }
  return out;
}

/**
 * Builds, stores and delivers export `exportId` (the worker). Archive layout: `manifest.json`,
 * `records/<Entity>.json` (arrays of records), `documents/<documentId>/<file name>` (uploaded files).
 * @returns `skipped` when the export is no longer the building one (superseded, purged), else `completed`
 * @throws Error for transient failures (the scheduler retries)
 */
export async function buildExport(orgId: string, exportId: string, now: Date): Promise<{ outcome: 'completed' | 'skipped'; sizeBytes?: number }> {
  const e = await getLatestExport(orgId, true);
  if (!e || e.exportId !== exportId || e.state !== 'building') return { outcome: 'skipped' };
  const org = await getOrganization(orgId, true);
  if (!org) return { outcome: 'skipped' };
  const items = await getItems(await allOrgItemKeys(orgId));
  const byEntity = new Map<string, Record<string, unknown>[]>();
  const files: Zippable = {};
  let documentCount = 0;
  for (const item of items) {
    const entity = String(item.entity ?? 'Other');
    if (EXCLUDED_ENTITIES.has(entity)) continue;
    byEntity.set(entity, [...(byEntity.get(entity) ?? []), exportRecord(item)]);
    if (entity === 'Document' && item.uploadState === 'uploaded' && typeof item.s3Key === 'string') {
      const bytes = await getObjectBytes(item.s3Key).catch(() => undefined);
      if (bytes) {
        files[`documents/${String(item.id)}/${item.s3Key.split('/').pop()}`] = bytes;
        documentCount++;
      }
    }
  }
  let recordCount = 0;
  for (const [entity, records] of [...byEntity].sort(([a], [b]) => a.localeCompare(b))) {
    files[`records/${entity}.json`] = strToU8(JSON.stringify(records, null, 2));
    recordCount += records.length;
  }
  const manifest = { orgId, workspaceName: org.name, exportId, generatedAt: now.toISOString(), recordCount, documentCount, entities: Object.fromEntries([...byEntity].map(([k, v]) => [k, v.length])) };
  files['manifest.json'] = strToU8(JSON.stringify(manifest, null, 2));
  const zip = zipSync(files, { level: 6 });
  const s3Key = exportArchiveKey(orgId, exportId);
  await putObject(s3Key, zip, 'application/zip');
  const expiresAt = new Date(now.getTime() + EXPORT_TTL_SECONDS * 1000).toISOString();
  const url = await presignGet(s3Key, EXPORT_TTL_SECONDS, `workspace-export-${now.toISOString().slice(0, 10)}.zip`);
  const { email } = await ownerAddress(orgId);
  await sendWorkspaceNotice(
    email,
    `Your export of "${org.name}" is ready`,
    [
      `The export of the workspace "${org.name}" is ready: ${recordCount} records and ${documentCount} documents (${zip.byteLength} bytes).`,
      '',
      `Download it before ${expiresAt} (UTC); the link and the archive expire then:`,
      url,
    ].join('\n'),
  );
  const done = await finishExport(orgId, exportId, { state: 'completed', completedAt: now.toISOString(), expiresAt, s3Key, sizeBytes: zip.byteLength, recordCount, documentCount, error: null });
  if (!done) logger.warn('export finished after it was superseded');
  return { outcome: 'completed', sizeBytes: zip.byteLength };
}
