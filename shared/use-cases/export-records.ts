/**
 * Stages an organization's items for the workspace export without holding them in memory: the GSI3 keys are read a
 * page at a time (shared/db/org-items.ts), each page's items are fetched (`BatchGetItem`) and appended, as JSON, to
 * one file per entity under the temporary directory (Lambda's `/tmp`), each file a JSON array. Uploaded documents
 * are listed (id and object key only) for the archive to stream afterwards.
 */
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { getItems, orgItemKeysPage } from '#db/org-items';

/** One entity's staged file: a JSON array of `count` records. */
export interface StagedEntity {
  entity: string;
  file: string;
  count: number;
}

/** What `stageRecords` staged; `dispose` deletes the files. */
export interface StagedRecords {
  /** Sorted by entity name. */
  entities: StagedEntity[];
  /** Uploaded documents (`uploadState` `uploaded`) with their object keys, in GSI3 order. */
  documents: { documentId: string; s3Key: string }[];
  dispose(): Promise<void>;
}

/**
 * @param recordOf the record to export for an item, or undefined to leave the item out
 * @throws Error from DynamoDB or the file system (the files staged so far are deleted)
 */
export async function stageRecords(orgId: string, recordOf: (item: Record<string, unknown>) => Record<string, unknown> | undefined): Promise<StagedRecords> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'export-'));
  const open = new Map<string, { out: WriteStream; staged: StagedEntity }>();
  const documents: StagedRecords['documents'] = [];
  const write = async (out: WriteStream, text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  try {
    let next: Record<string, unknown> | undefined;
    do {
      const page = await orgItemKeysPage(orgId, next);
      next = page.next;
      for (const item of await getItems(page.keys)) {
        const record = recordOf(item);
        if (!record) continue;
        const entity = String(item.entity ?? 'Other').replace(/[^A-Za-z0-9_-]/g, '_');
        let f = open.get(entity);
        if (!f) {
          const file = path.join(dir, `${entity}.json`);
          f = { out: createWriteStream(file), staged: { entity, file, count: 0 } };
          open.set(entity, f);
        }
        await write(f.out, `${f.staged.count ? ',\n' : '[\n'}${JSON.stringify(record)}`);
        f.staged.count++;
        if (entity === 'Document' && item.uploadState === 'uploaded' && typeof item.s3Key === 'string') documents.push({ documentId: String(item.id), s3Key: item.s3Key });
      }
    } while (next);
    for (const { out } of open.values()) {
      out.end('\n]\n');
      await once(out, 'close');
    }
  } catch (err) {
    for (const { out } of open.values()) out.destroy();
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    entities: [...open.values()].map((f) => f.staged).sort((a, b) => a.entity.localeCompare(b.entity)),
    documents,
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}
