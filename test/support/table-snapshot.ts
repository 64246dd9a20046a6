/**
 * What a request stored: a consistent scan of the test table and the list of stored files, minus what the
 * request pipeline writes for every request by design (the credential's rate-limit counters on its `ApiKey` item,
 * or on its `OAuthGrant` item for an access token, `UsageDay` items when a window rolls over, and `Idempotency`
 * records, which store 4xx answers too).
 */
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';
import { documentsBucket, s3 } from '#ports/blob-store';

/** Entities the pipeline writes on every request, refused or not (shared/db/api-keys.ts, oauth.ts, usage.ts, idempotency.ts). */
export const PIPELINE_ENTITIES: ReadonlySet<string> = new Set(['ApiKey', 'OAuthGrant', 'UsageDay', 'Idempotency']);

/**
 * Whether a sort key is one of those pipeline entities': `APIKEY` and `GRANT` (counters), `IDEM`,
 * and `DAY#…` (usage days).
 */
export function isPipelineKey(sk: string): boolean {
  return sk === 'APIKEY' || sk === 'GRANT' || sk === 'IDEM' || sk.startsWith('DAY#');
}

/**
 * An item as one JSON line, the attributes of every map in name order, so equal items give equal lines. A nested
 * map keeps all its attributes (a `JSON.stringify` key list would keep only the names found at the top); a set is
 * its sorted members, bytes their base64.
 */
export function itemLine(item: Record<string, unknown>): string {
  return JSON.stringify(item, (_key, v: unknown) => {
    if (v instanceof Set) return [...v].map(String).sort();
    if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
    return Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  });
}

/**
 * Every stored item (but pipeline entities) as sorted JSON lines, and every stored file key.
 * @param files list the documents bucket too (only operations with the `documents:write` capability store files)
 */
export async function snapshot(files = true): Promise<{ items: string[]; files: string[] }> {
  const items: string[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const out = await db().send(new ScanCommand({ TableName: tableName(), ConsistentRead: true, ExclusiveStartKey }));
    for (const item of out.Items ?? []) if (!PIPELINE_ENTITIES.has(item.entity)) items.push(itemLine(item));
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return { items: items.sort(), files: files ? await storedFiles() : [] };
}

/** Every file key of the documents bucket, sorted (none when no local S3 is configured: `S3_ENDPOINT`). */
export async function storedFiles(): Promise<string[]> {
  const keys: string[] = [];
  if (!process.env.S3_ENDPOINT) return keys;
  let ContinuationToken: string | undefined;
  do {
    const out = await s3().send(new ListObjectsV2Command({ Bucket: documentsBucket(), ContinuationToken }));
    keys.push(...(out.Contents ?? []).map((o) => o.Key!));
    ContinuationToken = out.NextContinuationToken;
  } while (ContinuationToken);
  return keys.sort();
}

/** Items and files present in `after` but not in `before`, or changed (as `- old` / `+ new` lines). */
export function snapshotDiff(before: { items: string[]; files: string[] }, after: { items: string[]; files: string[] }): string[] {
  const diff = (a: string[], b: string[]) => {
    const left = new Set(a);
    const right = new Set(b);
    return [...a.filter((x) => !right.has(x)).map((x) => `- ${x}`), ...b.filter((x) => !left.has(x)).map((x) => `+ ${x}`)];
  };
  return [...diff(before.items, after.items), ...diff(before.files, after.files).map((l) => `${l[0]} file ${l.slice(2)}`)];
}
