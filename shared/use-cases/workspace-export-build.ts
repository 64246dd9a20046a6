/**
 * The workspace export worker's side (functions/workspace-export): builds the archive of an export requested through
 * shared/use-cases/workspace-export.ts, stores it under `exports/<orgId>/`, and emails the owner its link.
 */
import { createReadStream } from 'node:fs';
import { getOrganization } from '#db/orgs';
import { finishExport, getLatestExport } from '#db/workspace-exports';
import { exportArchiveKey, getObjectStream, presignGet } from '#ports/blob-store';
import { startArchiveUpload } from '#ports/archive-upload';
import { EXPORT_TTL_SECONDS } from '#domain/workspace-lifecycle';
import { logger } from '#observability/powertools';
import { stageRecords } from '#use-cases/export-records';
import { EXCLUDED_ENTITIES, exportRecord } from '#use-cases/workspace-export';
import { ownerAddress, WORKSPACE_NOTICE_SENDER } from '#use-cases/workspace-mail';
import { sendServiceEmail } from '#use-cases/service-mail';

/**
 * Builds, stores and delivers export `exportId` (the worker). Archive layout: `records/<Entity>.json` (arrays of
 * records), `documents/<documentId>/<file name>` (uploaded files, stored without recompression), `manifest.json`.
 * Nothing is held whole in memory: records are staged page by page in per-entity files under the temporary directory
 * (shared/use-cases/export-records.ts), documents are streamed from S3 one at a time, and the archive is streamed into
 * a multipart upload (shared/ports/archive-upload.ts); a documents folder of 5 GB exports within 512 MB.
 * @returns `skipped` when the export is no longer the building one (superseded, purged), else `completed`
 * @throws Error for transient failures (the scheduler retries; a partial upload is aborted)
 */
export async function buildExport(orgId: string, exportId: string, now: Date): Promise<{ outcome: 'completed' | 'skipped'; sizeBytes?: number }> {
  const e = await getLatestExport(orgId, true);
  if (!e || e.exportId !== exportId || e.state !== 'building') return { outcome: 'skipped' };
  const org = await getOrganization(orgId, true);
  if (!org) return { outcome: 'skipped' };
  const s3Key = exportArchiveKey(orgId, exportId);
  const staged = await stageRecords(orgId, (item) => (EXCLUDED_ENTITIES.has(String(item.entity ?? 'Other')) ? undefined : exportRecord(item)));
  const recordCount = staged.entities.reduce((n, x) => n + x.count, 0);
  const archive = startArchiveUpload(s3Key);
  let documentCount = 0;
  let sizeBytes: number;
  try {
    for (const { entity, file } of staged.entities) await archive.addStream(`records/${entity}.json`, createReadStream(file), { compress: true });
    for (const d of staged.documents) {
      const object = await getObjectStream(d.s3Key);
      if (!object) continue; // deleted since it was listed
      await archive.addStream(`documents/${d.documentId}/${d.s3Key.split('/').pop()}`, object.stream, { compress: false, size: object.sizeBytes });
      documentCount++;
    }
    const entities = Object.fromEntries(staged.entities.map((x) => [x.entity, x.count]));
    const manifest = { orgId, workspaceName: org.name, exportId, generatedAt: now.toISOString(), recordCount, documentCount, entities };
    archive.addBytes('manifest.json', Buffer.from(JSON.stringify(manifest, null, 2)), { compress: true });
    ({ sizeBytes } = await archive.close());
  } catch (err) {
    await archive.abort();
    throw err;
  } finally {
    await staged.dispose();
  }
  const expiresAt = new Date(now.getTime() + EXPORT_TTL_SECONDS * 1000).toISOString();
  const url = await presignGet(s3Key, EXPORT_TTL_SECONDS, `workspace-export-${now.toISOString().slice(0, 10)}.zip`);
  const { email } = await ownerAddress(orgId);
  // Sent directly: the export worker is a worker already (only the API groups must not hold a transport).
  await sendServiceEmail({
    to: email,
    fromName: WORKSPACE_NOTICE_SENDER,
    subject: `Your export of "${org.name}" is ready`,
    text: [
      `The export of the workspace "${org.name}" is ready: ${recordCount} records and ${documentCount} documents (${sizeBytes} bytes).`,
      '',
      `Download it before ${expiresAt} (UTC); the link and the archive expire then:`,
      url,
    ].join('\n'),
  });
  const done = await finishExport(orgId, exportId, { state: 'completed', completedAt: now.toISOString(), expiresAt, s3Key, sizeBytes, recordCount, documentCount, error: null });
  if (!done) logger.warn('export finished after it was superseded');
  return { outcome: 'completed', sizeBytes };
}
