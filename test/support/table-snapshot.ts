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
 * Every stored item (but pipeline entities) as sorted JSON lines, and every stored file key.
 * @param files list the documents bucket too (only operations with the `documents:write` capability store files)
 */
export async function snapshot(files = true): Promise<{ items: string[]; files: string[] }> {
  const items: string[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const out = await db().send(new ScanCommand({ TableName: tableName(), ConsistentRead: true, ExclusiveStartKey }));
    for (const item of out.Items ?? []) if (!PIPELINE_ENTITIES.has(item.entity)) items.push(JSON.stringify(item, Object.keys(item).sort()));
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  const keys: string[] = [];
  if (files && process.env.S3_ENDPOINT) {
    let ContinuationToken: string | undefined;
    do {
      const out = await s3().send(new ListObjectsV2Command({ Bucket: documentsBucket(), ContinuationToken }));
      keys.push(...(out.Contents ?? []).map((o) => o.Key!));
      ContinuationToken = out.NextContinuationToken;
    } while (ContinuationToken);
  }
  return { items: items.sort(), files: keys.sort() };
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
