/**
 * What was written to the test table since the last read, from the table's own stream (DynamoDB Streams on DynamoDB
 * Local; the table is created with `NEW_AND_OLD_IMAGES`, shared/db/table-definition.ts). Every completed write of any
 * item — of any organization, or of none (lookups, consents, partners) — by any client is a record there, so a caller
 * learns what a request stored without scanning the table: the cost follows the writes, not the table's size.
 * DynamoDB Local makes a record visible as soon as the write returns, writes none for an update that changed
 * nothing, and hands out every record available in one GetRecords page (test/integration/table-changes.test.ts checks
 * these, and each kind of write). A read costs the engine about 2-3 ms of CPU (one GetRecords per shard).
 */
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DescribeStreamCommand, DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand, type GetRecordsCommandOutput, type _Record } from '@aws-sdk/client-dynamodb-streams';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { itemLine, PIPELINE_ENTITIES } from './table-snapshot.ts';

/** One item's change: its images before and after (undefined when it did not exist), unmarshalled. */
export interface ItemChange {
  event: 'INSERT' | 'MODIFY' | 'REMOVE';
  keys: { PK: string; SK: string };
  oldImage?: Record<string, unknown>;
  newImage?: Record<string, unknown>;
}

/** GetRecords' largest page. */
const PAGE = 1000;

/**
 * An image, unmarshalled. The streams client reads an empty map from DynamoDB Local as a value with no member (`{}`),
 * which `unmarshall` refuses: it is read as the empty map here.
 */
const image = (i: Record<string, AttributeValue> | undefined) => (i ? unmarshall(filledMap(i)) : undefined);

type Value = Record<string, unknown>;
/** A value with no member as the empty map; maps and lists within, likewise. */
function filledValue(v: Value): Value {
  if (Object.keys(v).length === 0) return { M: {} };
  if (v.M) return { M: filledMap(v.M as Record<string, Value>) };
  if (Array.isArray(v.L)) return { L: (v.L as Value[]).map(filledValue) };
  return v;
}
const filledMap = (m: Record<string, unknown>): Record<string, AttributeValue> =>
  Object.fromEntries(Object.entries(m).map(([k, v]) => [k, filledValue(v as Value) as unknown as AttributeValue]));

/** Reads a table's stream from where the last read stopped; `start` first. */
export class TableChanges {
  private readonly streams: DynamoDBStreamsClient;
  private readonly ddb: DynamoDBClient;
  private streamArn?: string;
  /** Per shard not fully read: its next iterator. */
  private readonly iterators = new Map<string, string>();
  /** Shards read to their end (closed), so `DescribeStream` does not hand them out again. */
  private readonly finished = new Set<string>();

  constructor(
    endpoint: string,
    private readonly tableName: string,
  ) {
    const config = { endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };
    this.streams = new DynamoDBStreamsClient(config);
    this.ddb = new DynamoDBClient(config);
  }

  /**
   * Positions the reader at the stream's start (`TRIM_HORIZON`), so the first `read` returns every write since the
   * table was made. @throws Error when the table has no stream
   */
  async start(): Promise<void> {
    const table = await this.ddb.send(new DescribeTableCommand({ TableName: this.tableName }));
    this.streamArn = table.Table?.LatestStreamArn;
    if (!this.streamArn) throw new Error(`table ${this.tableName} has no stream`);
    await this.findShards();
  }

  /** Adds the stream's shards not seen yet, each from its start. */
  private async findShards(): Promise<void> {
    let ExclusiveStartShardId: string | undefined;
    do {
      const out = await this.streams.send(new DescribeStreamCommand({ StreamArn: this.streamArn, ExclusiveStartShardId }));
      for (const shard of out.StreamDescription?.Shards ?? []) {
        const id = shard.ShardId!;
        if (this.iterators.has(id) || this.finished.has(id)) continue;
        const it = await this.streams.send(new GetShardIteratorCommand({ StreamArn: this.streamArn, ShardId: id, ShardIteratorType: 'TRIM_HORIZON' }));
        if (it.ShardIterator) this.iterators.set(id, it.ShardIterator);
        else this.finished.add(id);
      }
      ExclusiveStartShardId = out.StreamDescription?.LastEvaluatedShardId;
    } while (ExclusiveStartShardId);
  }

  /**
   * Every change since the last read (or `start`), in stream order per shard, until each shard has no more for now.
   * A shard that closed makes the reader look for its children, so a change is never skipped.
   * @throws Error before `start`
   */
  async read(): Promise<ItemChange[]> {
    if (!this.streamArn) throw new Error('TableChanges.read before start');
    const records: _Record[] = [];
    let closed = false;
    for (const [id, first] of [...this.iterators]) {
      let iterator: string | undefined = first;
      for (;;) {
        const page: GetRecordsCommandOutput = await this.streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: PAGE }));
        records.push(...(page.Records ?? []));
        iterator = page.NextShardIterator;
        // DynamoDB Local answers with every record the shard holds past the iterator, up to the limit: a shorter
        // page is the end for now (a GetRecords call less per read; test/integration/table-changes.test.ts).
        if (!iterator || (page.Records?.length ?? 0) < PAGE) break;
      }
      if (iterator) this.iterators.set(id, iterator);
      else {
        this.iterators.delete(id);
        this.finished.add(id);
        closed = true;
      }
    }
    if (closed) {
      await this.findShards();
      return [...records.map(toChange), ...(await this.read())];
    }
    return records.map(toChange);
  }

  /** Closes the clients. */
  close(): void {
    this.streams.destroy();
    this.ddb.destroy();
  }
}

function toChange(r: _Record): ItemChange {
  const keys = image(r.dynamodb?.Keys as Record<string, AttributeValue>) as { PK: string; SK: string };
  return {
    event: r.eventName as ItemChange['event'],
    keys,
    oldImage: image(r.dynamodb?.OldImage as Record<string, AttributeValue> | undefined),
    newImage: image(r.dynamodb?.NewImage as Record<string, AttributeValue> | undefined),
  };
}

/**
 * What the changes stored, as `- old` / `+ new` lines (the format of `snapshotDiff`): per item its image before the
 * first change against its image after the last, so an item written and put back as it was stored nothing; the
 * request pipeline's own items (`PIPELINE_ENTITIES`: rate-limit counters, usage days, idempotency records) aside, as
 * table-snapshot.ts leaves them out.
 */
export function storedLines(changes: readonly ItemChange[]): string[] {
  const net = new Map<string, { before?: Record<string, unknown>; after?: Record<string, unknown> }>();
  for (const c of changes) {
    const key = JSON.stringify([c.keys.PK, c.keys.SK]);
    const seen = net.get(key);
    if (seen) seen.after = c.newImage;
    else net.set(key, { before: c.oldImage, after: c.newImage });
  }
  const lines: string[] = [];
  for (const { before, after } of net.values()) {
    const entity = (after ?? before)?.entity;
    if (typeof entity === 'string' && PIPELINE_ENTITIES.has(entity)) continue;
    const [old, now] = [before && itemLine(before), after && itemLine(after)];
    if (old === now) continue;
    if (old) lines.push(`- ${old}`);
    if (now) lines.push(`+ ${now}`);
  }
  return lines;
}
