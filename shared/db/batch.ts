/** Batched reads and writes of known keys (`BatchGetItem`, `BatchWriteItem`), unprocessed items retried. */
import { BatchGetCommand, BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';

/** Writes `puts` and `deletes` with `BatchWriteItem` (25 a call, unprocessed items retried). */
export async function batchWrite(puts: Record<string, unknown>[], deletes: { PK: string; SK: string }[] = []): Promise<void> {
  const requests = [...deletes.map((Key) => ({ DeleteRequest: { Key } })), ...puts.map((Item) => ({ PutRequest: { Item } }))];
  for (let i = 0; i < requests.length; i += 25) {
    let pending: Record<string, any> | undefined = { [tableName()]: requests.slice(i, i + 25) };
    for (let attempt = 0; pending && Object.keys(pending).length; attempt++) {
      if (attempt) await new Promise((r) => setTimeout(r, Math.min(1000, 25 * 2 ** attempt)));
      // `?.`: a mocked client (unit tests) may answer nothing.
      pending = (await db().send(new BatchWriteCommand({ RequestItems: pending })))?.UnprocessedItems;
    }
  }
}

/**
 * The items at `keys` in the order of `keys` (missing ones left out), with `BatchGetItem` (100 keys a call,
 * unprocessed keys retried).
 */
export async function batchGetInOrder(keys: { PK: string; SK: string }[]): Promise<Record<string, any>[]> {
  const found = new Map<string, Record<string, any>>();
  for (let i = 0; i < keys.length; i += 100) {
    let pending: Record<string, any> | undefined = { [tableName()]: { Keys: keys.slice(i, i + 100) } };
    while (pending && Object.keys(pending).length) {
      const out: { Responses?: Record<string, Record<string, any>[]>; UnprocessedKeys?: Record<string, any> } = (await db().send(new BatchGetCommand({ RequestItems: pending }))) ?? {};
      for (const item of out.Responses?.[tableName()] ?? []) found.set(`${item.PK}\n${item.SK}`, item);
      pending = out.UnprocessedKeys;
    }
  }
  return keys.map((k) => found.get(`${k.PK}\n${k.SK}`)).filter((i): i is Record<string, any> => i !== undefined);
}
