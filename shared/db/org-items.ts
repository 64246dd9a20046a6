/**
 * Every item of one organization, through GSI3 (`orgId` → keys only; shared/db/table-definition.ts). The workspace
 * purge deletes them and the export reads them; neither scans the table, so no other tenant's item is ever read or
 * written: the index partition is the organization's id, and each key returned belongs to an item whose `orgId`
 * attribute is that id.
 */
import { BatchGetCommand, BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import pMap from 'p-map';
import { db, tableName } from '#db/client';

/** The primary key of an item. */
export interface ItemKey {
  PK: string;
  SK: string;
}

/** DynamoDB's limits: items per `BatchWriteItem` and per `BatchGetItem`. */
const WRITE_BATCH = 25;
const GET_BATCH = 100;
/** Attempts at a batch's unprocessed items (throttling) before giving up (the caller's retry resumes). */
const BATCH_ATTEMPTS = 8;

/**
 * One page of the organization's item keys (at most `limit`, default 500), in GSI3 order.
 * @param startKey the previous page's `next` (undefined for the first page)
 * @returns the keys and the cursor of the next page (undefined on the last)
 */
export async function orgItemKeysPage(orgId: string, startKey?: Record<string, unknown>, limit = 500): Promise<{ keys: ItemKey[]; next?: Record<string, unknown> }> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'GSI3',
      KeyConditionExpression: 'orgId = :org',
      ExpressionAttributeValues: { ':org': orgId },
      ExclusiveStartKey: startKey,
      Limit: limit,
    }),
  );
  return { keys: (out.Items ?? []).map((i) => ({ PK: String(i.PK), SK: String(i.SK) })), next: out.LastEvaluatedKey };
}

/** Every key of the organization's items (all pages). */
export async function allOrgItemKeys(orgId: string): Promise<ItemKey[]> {
  const keys: ItemKey[] = [];
  let next: Record<string, unknown> | undefined;
  do {
    const page = await orgItemKeysPage(orgId, next);
    keys.push(...page.keys);
    next = page.next;
  } while (next);
  return keys;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * `BatchWriteItem` calls `deleteItems` keeps in flight. A sequential purge of a brokerage's year (about 976,000
 * items, docs/benchmarks.md "Scale") would need about 39,000 calls one after another, longer than the purge's
 * 15-minute Lambda; eight at a time stays far below an on-demand table's limits, and a throttled call comes back as
 * unprocessed items, retried with backoff.
 */
export const DELETE_CONCURRENCY = 8;

/**
 * Deletes items by key, 25 per `BatchWriteItem`, up to `DELETE_CONCURRENCY` calls at once, retrying unprocessed ones
 * with backoff. Deleting an absent item succeeds, so a repeated call (a resumed purge) is harmless.
 * @returns how many deletes were sent
 * @throws Error when DynamoDB keeps items unprocessed after `BATCH_ATTEMPTS` tries (the caller retries later)
 */
export async function deleteItems(keys: readonly ItemKey[]): Promise<number> {
  const batches: ItemKey[][] = [];
  for (let i = 0; i < keys.length; i += WRITE_BATCH) batches.push(keys.slice(i, i + WRITE_BATCH));
  await pMap(batches, deleteBatch, { concurrency: DELETE_CONCURRENCY });
  return keys.length;
}

/** One `BatchWriteItem` of at most 25 deletes, retrying its unprocessed items. */
async function deleteBatch(batch: readonly ItemKey[]): Promise<void> {
  let requests = batch.map((k) => ({ DeleteRequest: { Key: { PK: k.PK, SK: k.SK } } }));
  for (let attempt = 0; requests.length; attempt++) {
    if (attempt >= BATCH_ATTEMPTS) throw new Error(`${requests.length} deletes left unprocessed`);
    if (attempt) await pause(50 * 2 ** attempt);
    const out = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: requests } }));
    requests = (out.UnprocessedItems?.[tableName()] ?? []) as typeof requests;
  }
}

/**
 * Reads items by key, 100 per `BatchGetItem`, retrying unprocessed keys. Items deleted meanwhile are absent.
 * @returns the items found (order not guaranteed)
 */
export async function getItems(keys: readonly ItemKey[]): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  for (let i = 0; i < keys.length; i += GET_BATCH) {
    let want: Record<string, unknown>[] = keys.slice(i, i + GET_BATCH).map((k) => ({ PK: k.PK, SK: k.SK }));
    for (let attempt = 0; want.length; attempt++) {
      if (attempt >= BATCH_ATTEMPTS) throw new Error(`${want.length} reads left unprocessed`);
      if (attempt) await pause(50 * 2 ** attempt);
      const out = await db().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: want } } }));
      found.push(...(out.Responses?.[tableName()] ?? []));
      want = out.UnprocessedKeys?.[tableName()]?.Keys ?? [];
    }
  }
  return found;
}
