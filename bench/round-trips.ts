/**
 * Counts DynamoDB round trips made through the shared document client, and the capacity each consumed, with a
 * middleware on its stack (the document client shares the base client's stack, so every command of the process
 * passes it once). The middleware asks each data-plane call for `ReturnConsumedCapacity: INDEXES` (bench only; the
 * service never asks) and adds up the read and write units DynamoDB reports, the table's and each GSI's.
 * Counts are meaningful per request only while requests run one at a time.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** Capacity units consumed by some calls: on the base table and on its GSIs. */
export interface Capacity {
  read: number;
  write: number;
  /** Write units consumed on GSIs (included in `write`). */
  indexWrite: number;
  /** Items returned by reads (`Count` of a Query, items of a Get or BatchGet): what a read touched. */
  items: number;
  /** Items a Query or Scan evaluated before its filter (`ScannedCount`), plus `items` of other reads. */
  scanned: number;
}

export interface RoundTripCounter {
  /** Calls seen so far. */
  readonly count: number;
  /** Command names in call order (e.g. `UpdateItemCommand`), for the calls made since `mark()`. */
  since(mark: number): string[];
  /** Capacity consumed by the calls made since `mark()`. */
  capacitySince(mark: number): Capacity;
  /** Position to pass to `since`. */
  mark(): number;
}

/** Commands that accept `ReturnConsumedCapacity` (the base client's names: the stack sees those). */
const METERED = new Set(['GetItemCommand', 'PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'QueryCommand', 'ScanCommand', 'BatchGetItemCommand', 'BatchWriteItemCommand', 'TransactWriteItemsCommand', 'TransactGetItemsCommand']);

interface ConsumedCapacity {
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
  CapacityUnits?: number;
  Table?: { ReadCapacityUnits?: number; WriteCapacityUnits?: number; CapacityUnits?: number };
  GlobalSecondaryIndexes?: Record<string, { ReadCapacityUnits?: number; WriteCapacityUnits?: number; CapacityUnits?: number }>;
}

/** Read and write units of one `ConsumedCapacity` entry (DynamoDB Local reports `CapacityUnits` only: counted by the command's kind). */
function unitsOf(c: ConsumedCapacity, isWrite: boolean): Omit<Capacity, 'items' | 'scanned'> {
  const total = (x: { ReadCapacityUnits?: number; WriteCapacityUnits?: number; CapacityUnits?: number } | undefined) => ({
    read: x?.ReadCapacityUnits ?? (isWrite ? 0 : (x?.CapacityUnits ?? 0)),
    write: x?.WriteCapacityUnits ?? (isWrite ? (x?.CapacityUnits ?? 0) : 0),
  });
  const all = total(c);
  const gsi = Object.values(c.GlobalSecondaryIndexes ?? {}).reduce((s, g) => s + total(g).write, 0);
  return { read: all.read, write: all.write, indexWrite: gsi };
}

/** Installs the counting middleware (step `initialize`) on `doc` and returns its counter. */
export function installRoundTripCounter(doc: DynamoDBDocumentClient): RoundTripCounter {
  const names: string[] = [];
  const capacity: Capacity[] = [];
  doc.middlewareStack.add(
    (next, context) => async (args) => {
      const name = String((context as { commandName?: string }).commandName ?? 'unknown');
      names.push(name);
      const slot = capacity.push({ read: 0, write: 0, indexWrite: 0, items: 0, scanned: 0 }) - 1;
      if (!METERED.has(name)) return next(args);
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'INDEXES';
      const result = await next(args);
      const out = result.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[]; Count?: number; ScannedCount?: number; Item?: unknown; Items?: unknown[]; Responses?: unknown };
      const isWrite = /Put|Update|Delete|Write/.test(name);
      const entries = Array.isArray(out.ConsumedCapacity) ? out.ConsumedCapacity : out.ConsumedCapacity ? [out.ConsumedCapacity] : [];
      const c = capacity[slot];
      for (const e of entries) {
        const u = unitsOf(e, isWrite);
        c.read += u.read;
        c.write += u.write;
        c.indexWrite += u.indexWrite;
      }
      const got =
        out.Count ??
        (out.Item ? 1 : 0) +
          (Array.isArray(out.Responses) ? out.Responses.length : Object.values((out.Responses as Record<string, unknown[]> | undefined) ?? {}).reduce((s, r) => s + (Array.isArray(r) ? r.length : 0), 0));
      c.items += got;
      c.scanned += out.ScannedCount ?? got;
      return result;
    },
    { step: 'initialize', name: 'benchRoundTripCounter', override: true },
  );
  return {
    get count() {
      return names.length;
    },
    mark: () => names.length,
    since: (mark) => names.slice(mark),
    capacitySince: (mark) =>
      capacity.slice(mark).reduce((s, c) => ({ read: s.read + c.read, write: s.write + c.write, indexWrite: s.indexWrite + c.indexWrite, items: s.items + c.items, scanned: s.scanned + c.scanned }), {
        read: 0,
        write: 0,
        indexWrite: 0,
        items: 0,
        scanned: 0,
      }),
  };
}
