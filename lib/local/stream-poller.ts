/**
 * The local stand-in for Lambda's DynamoDB Streams event source mapping on the outbox: reads the table's
 * stream on DynamoDB Local (DescribeStream / GetShardIterator / GetRecords), keeps only what the deployed
 * mapping's filter lets through (INSERTs of `entity = OutboxEvent`), and hands batches to the fan-out
 * handler as real `DynamoDBStreamEvent`s, with `ReportBatchItemFailures` semantics.
 *
 * Progress survives restarts through a checkpoint file (last fully processed sequence number per shard),
 * so `npm start` after a stop resumes where it was. Delivery is at-least-once: a crash between an
 * invocation and its checkpoint, or a checkpoint that no longer matches the stream, replays records.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamsRecord,
  type AttributeValue as SdkAttributeValue,
  type Shard,
  type ShardIteratorType,
} from '@aws-sdk/client-dynamodb-streams';
import type { AttributeValue, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '#observability/powertools';
import { invokeLocally } from '#lib/local/invoke';

export interface StreamPollerOptions {
  /** DynamoDB Local endpoint (it serves the Streams API too). */
  endpoint: string;
  tableName: string;
  /** JSON file holding progress; created (with its directory) on the first checkpoint. */
  checkpointFile: string;
  /** The handler (e.g. `invokeWebhookFanout`). May throw: then the whole batch is retried. */
  invoke: (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse | void>;
  /** Pause after a poll that found records, in ms (default 100); it doubles while polls find none. */
  intervalMs?: number;
  /**
   * The longest pause while idle, in ms (default 250: Lambda polls a stream's shards four times a second). An idle
   * local runtime then polls DynamoDB Local four times a second instead of twenty.
   */
  maxIdleIntervalMs?: number;
  /** The largest batch handed to `invoke`, in records that passed the filter (default 100; also GetRecords' `Limit`). */
  batchSize?: number;
  /** Pause before retrying after a failed batch, in ms (default 500). */
  retryBackoffMs?: number;
  /** How often the table and stream are re-described to find new shards or a new stream, in ms (default 5000). */
  describeIntervalMs?: number;
  /** Which records reach `invoke` (default `isOutboxInsert`, the deployed mapping's filter). */
  filter?: (record: DynamoDBRecord) => boolean;
  /** Error sink (default: an ERROR line of the Powertools logger, `source: stream-poller`). */
  log?: (message: string, err?: unknown) => void;
}

export interface StreamPoller {
  /** Stops polling: finishes the in-flight batch, writes the checkpoint, then resolves. */
  stop(): Promise<void>;
}

/** What the checkpoint file holds. Sequence numbers are DynamoDB's decimal strings. */
export interface StreamCheckpoint {
  streamArn?: string;
  shards: Record<string, { sequenceNumber?: string; closed?: boolean }>;
}

/** The deployed event source mapping's filter: `eventName = INSERT` and `NewImage.entity.S = OutboxEvent`. */
export function isOutboxInsert(record: DynamoDBRecord): boolean {
  return record.eventName === 'INSERT' && record.dynamodb?.NewImage?.entity?.S === 'OutboxEvent';
}

interface ShardState {
  id: string;
  parentId?: string;
  closed: boolean;
  iterator?: string;
  /** Where to resume after a failed batch (takes precedence over the checkpoint). */
  retryAt?: string;
  /** The checkpoint's position proved invalid: read from TRIM_HORIZON. */
  fromTrimHorizon?: boolean;
}

/** Errors meaning "this shard/sequence position no longer exists": fall back to TRIM_HORIZON. */
const STALE_POSITION = new Set(['TrimmedDataAccessException', 'ResourceNotFoundException', 'ValidationException', 'InternalFailure']);

/**
 * Starts the poll loop over the table's latest stream and returns at once. The loop never throws:
 * errors (table or stream missing, engine unreachable, handler failures) are logged and retried.
 *
 * Semantics, as Lambda's mapping with `ReportBatchItemFailures` (no bisect, unlimited retries):
 * - shards are read parent first: a child shard starts once its parent is closed and fully read;
 * - records are filtered before they are batched, as Lambda does: GetRecords pages are read until `batchSize`
 *   records passed the filter or the shard has no more for now, then invoked as one event (skipped when the filter
 *   leaves nothing); records that were filtered out count as processed;
 * - `batchItemFailures` → records before the lowest failed `SequenceNumber` are checkpointed, the rest
 *   (failed one included) are re-read and re-invoked after `retryBackoffMs`; a throw, or an
 *   `itemIdentifier` that names no record of the batch, retries the whole batch;
 * - the checkpoint (the last processed sequence number per shard) is written atomically after every
 *   successful batch; on start each shard resumes AFTER_SEQUENCE_NUMBER it, or from TRIM_HORIZON when
 *   there is none or it is no longer valid (trimmed, unknown shard, another stream).
 */
export function startStreamPoller(opts: StreamPollerOptions): StreamPoller {
  const {
    endpoint,
    tableName,
    checkpointFile,
    invoke,
    intervalMs = 100,
    maxIdleIntervalMs = 250,
    batchSize = 100,
    retryBackoffMs = 500,
    describeIntervalMs = 5000,
    filter = isOutboxInsert,
  } = opts;
  const log = opts.log ?? ((message: string, err?: unknown) => logger.error(message, { source: 'stream-poller', ...(err !== undefined && { error: err }) }));
  const config = { endpoint, region: process.env.AWS_REGION ?? 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };
  const ddb = new DynamoDBClient(config);
  const streams = new DynamoDBStreamsClient(config);

  let stopping = false;
  const sleepers = new Set<() => void>();
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      if (stopping) return resolve();
      const done = () => (clearTimeout(timer), sleepers.delete(done), resolve());
      const timer = setTimeout(done, ms);
      sleepers.add(done);
    });

  let checkpoint: StreamCheckpoint = { shards: {} };
  let checkpointDirty = false;
  let streamArn: string | undefined;
  let shards = new Map<string, ShardState>();
  let describedAt = 0;

  async function loadCheckpoint(): Promise<void> {
    try {
      const parsed = JSON.parse(await readFile(checkpointFile, 'utf8')) as StreamCheckpoint;
      checkpoint = { streamArn: parsed.streamArn, shards: parsed.shards ?? {} };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') log(`checkpoint ${checkpointFile} unreadable; starting from TRIM_HORIZON`, err);
    }
  }

  /** Whether the checkpoint's directory exists: made once, not before each save (one follows every batch). */
  let directoryMade = false;
  async function saveCheckpoint(): Promise<void> {
    if (!checkpointDirty) return;
    checkpointDirty = false;
    try {
      if (!directoryMade) await mkdir(path.dirname(checkpointFile), { recursive: true });
      directoryMade = true;
      const tmp = `${checkpointFile}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(tmp, JSON.stringify(checkpoint, null, 2) + '\n');
      await rename(tmp, checkpointFile);
    } catch (err) {
      checkpointDirty = true;
      directoryMade = false; // removed meanwhile? made again on the next try
      log(`could not write checkpoint ${checkpointFile}`, err);
    }
  }

  /** Finds the latest stream and its shards; resets progress when the stream changed. */
  async function describe(): Promise<void> {
    const arn = (await ddb.send(new DescribeTableCommand({ TableName: tableName }))).Table?.LatestStreamArn;
    if (!arn) throw new Error(`table ${tableName} has no stream`);
    if (arn !== streamArn) {
      streamArn = arn;
      shards = new Map();
      if (checkpoint.streamArn !== arn) {
        if (checkpoint.streamArn) log(`checkpoint is for stream ${checkpoint.streamArn}; reading ${arn} from TRIM_HORIZON`);
        checkpoint = { streamArn: arn, shards: {} };
        checkpointDirty = true;
      }
    }
    const listed: Shard[] = [];
    let ExclusiveStartShardId: string | undefined;
    do {
      const page = await streams.send(new DescribeStreamCommand({ StreamArn: arn, ExclusiveStartShardId }));
      listed.push(...(page.StreamDescription?.Shards ?? []));
      ExclusiveStartShardId = page.StreamDescription?.LastEvaluatedShardId;
    } while (ExclusiveStartShardId);
    const ids = new Set(listed.map((s) => s.ShardId!));
    for (const s of listed) {
      if (shards.has(s.ShardId!)) continue;
      shards.set(s.ShardId!, { id: s.ShardId!, parentId: s.ParentShardId, closed: checkpoint.shards[s.ShardId!]?.closed === true });
    }
    for (const id of [...shards.keys()]) if (!ids.has(id)) shards.delete(id);
    for (const id of Object.keys(checkpoint.shards))
      if (!ids.has(id)) {
        delete checkpoint.shards[id];
        checkpointDirty = true;
      }
    describedAt = Date.now();
  }

  /** Shards to read now: open, and whose parent (if still listed) is closed and fully read. */
  const readable = () => [...shards.values()].filter((s) => !s.closed && !(s.parentId && shards.get(s.parentId) && !shards.get(s.parentId)!.closed));

  async function iteratorFor(shard: ShardState): Promise<string | undefined> {
    const at = (ShardIteratorType: ShardIteratorType, SequenceNumber?: string) =>
      streams.send(new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shard.id, ShardIteratorType, SequenceNumber })).then((r) => r.ShardIterator);
    const saved = shard.fromTrimHorizon ? undefined : checkpoint.shards[shard.id]?.sequenceNumber;
    const position: [ShardIteratorType, string] | undefined = shard.retryAt
      ? ['AT_SEQUENCE_NUMBER', shard.retryAt]
      : saved
        ? ['AFTER_SEQUENCE_NUMBER', saved]
        : undefined;
    if (position) {
      try {
        return await at(...position);
      } catch (err) {
        if (!STALE_POSITION.has((err as Error).name)) throw err;
        log(`shard ${shard.id}: ${position[0]} ${position[1]} is no longer valid (${(err as Error).name}); reading from TRIM_HORIZON`);
        shard.fromTrimHorizon = true;
        shard.retryAt = undefined;
      }
    }
    return at('TRIM_HORIZON');
  }

  function markProcessed(shard: ShardState, sequenceNumber: string): void {
    checkpoint.shards[shard.id] = { ...checkpoint.shards[shard.id], sequenceNumber };
    shard.fromTrimHorizon = false;
    checkpointDirty = true;
  }

  function markClosed(shard: ShardState): void {
    shard.closed = true;
    shard.iterator = undefined;
    checkpoint.shards[shard.id] = { ...checkpoint.shards[shard.id], closed: true };
    checkpointDirty = true;
    describedAt = 0; // look for its children now
  }

  /** Reads and delivers one page of a shard. @returns true when records were read */
  async function pollShard(shard: ShardState): Promise<boolean> {
    shard.iterator ??= await iteratorFor(shard);
    if (!shard.iterator) {
      markClosed(shard);
      return false;
    }
    let page;
    try {
      page = await streams.send(new GetRecordsCommand({ ShardIterator: shard.iterator, Limit: batchSize }));
    } catch (err) {
      const name = (err as Error).name;
      shard.iterator = undefined;
      if (name === 'ExpiredIteratorException') return false;
      if (name === 'TrimmedDataAccessException') {
        shard.fromTrimHorizon = true;
        shard.retryAt = undefined;
        log(`shard ${shard.id}: position trimmed; reading from TRIM_HORIZON`);
        return false;
      }
      throw err;
    }
    const raw = page.Records ?? [];
    if (!raw.length) {
      shard.iterator = page.NextShardIterator;
      if (!page.NextShardIterator) markClosed(shard);
      return false;
    }
    shard.retryAt = undefined;
    const records = raw.map((r) => toDynamoDbRecord(r, streamArn!));
    const batch = records.filter(filter);
    // Lambda filters records before it batches them (a record no filter matches is discarded; the others go into the
    // next event: Lambda developer guide, "Control which events Lambda sends to your function"), so a batch holds up
    // to `batchSize` matching records: read on while the shard has more and the batch has room.
    let next = page.NextShardIterator;
    while (next && batch.length < batchSize && !stopping) {
      let more;
      try {
        more = await streams.send(new GetRecordsCommand({ ShardIterator: next, Limit: batchSize - batch.length }));
      } catch {
        break; // the records read so far go as they are; the next poll reads on from `next`
      }
      const read = (more.Records ?? []).map((r) => toDynamoDbRecord(r, streamArn!));
      if (!read.length) break;
      records.push(...read);
      batch.push(...read.filter(filter));
      next = more.NextShardIterator;
    }
    const failedAt = batch.length ? await deliver(batch) : undefined;
    if (failedAt !== undefined) {
      const index = records.findIndex((r) => r.dynamodb?.SequenceNumber === failedAt);
      if (index > 0) markProcessed(shard, records[index - 1].dynamodb!.SequenceNumber!);
      shard.iterator = undefined;
      shard.retryAt = failedAt;
      await saveCheckpoint();
      await pause(retryBackoffMs);
      return true;
    }
    markProcessed(shard, records[records.length - 1].dynamodb!.SequenceNumber!);
    shard.iterator = next;
    if (!next) markClosed(shard);
    await saveCheckpoint();
    return true;
  }

  /** Invokes one batch. @returns the sequence number to retry from, or undefined when all succeeded */
  async function deliver(batch: DynamoDBRecord[]): Promise<string | undefined> {
    const first = batch[0].dynamodb!.SequenceNumber!;
    let res: DynamoDBBatchResponse | void;
    try {
      res = await invoke({ Records: batch });
    } catch (err) {
      log(`handler threw; retrying the batch of ${batch.length} from ${first}`, err);
      return first;
    }
    const failures = res?.batchItemFailures ?? [];
    if (!failures.length) return undefined;
    const order = new Map(batch.map((r, i) => [r.dynamodb!.SequenceNumber!, i]));
    const indexes = failures.map((f) => (f.itemIdentifier ? order.get(f.itemIdentifier) : undefined));
    if (indexes.some((i) => i === undefined)) {
      log(`batchItemFailures names an unknown itemIdentifier; retrying the batch of ${batch.length} from ${first}`);
      return first;
    }
    return batch[Math.min(...(indexes as number[]))].dynamodb!.SequenceNumber!;
  }

  async function run(): Promise<void> {
    await loadCheckpoint();
    let idlePause = intervalMs;
    while (!stopping) {
      let busy = false;
      try {
        if (!streamArn || Date.now() - describedAt >= describeIntervalMs) await describe();
        for (const shard of readable()) {
          if (stopping) break;
          if (await pollShard(shard)) busy = true;
        }
      } catch (err) {
        log('poll failed; retrying in 1 s', err);
        await pause(1000);
      }
      if (busy) idlePause = intervalMs;
      else {
        await pause(idlePause);
        idlePause = Math.min(idlePause * 2, Math.max(intervalMs, maxIdleIntervalMs));
      }
    }
  }

  const loop = run().catch((err) => log('poll loop ended unexpectedly', err));
  let stopped: Promise<void> | undefined;
  return {
    stop: () =>
      (stopped ??= (async () => {
        stopping = true;
        for (const wake of [...sleepers]) wake();
        await loop;
        await saveCheckpoint();
        ddb.destroy();
        streams.destroy();
      })()),
  };
}

/** An SDK attribute value as it appears in a Lambda event (binaries as base64 strings). */
function toLambdaAttribute(v: SdkAttributeValue): AttributeValue {
  const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64');
  if (v.B !== undefined) return { B: b64(v.B) };
  if (v.BS !== undefined) return { BS: v.BS.map(b64) };
  if (v.L !== undefined) return { L: v.L.map(toLambdaAttribute) };
  if (v.M !== undefined) return { M: toLambdaImage(v.M)! };
  return v as AttributeValue;
}

function toLambdaImage(image: Record<string, SdkAttributeValue> | undefined): Record<string, AttributeValue> | undefined {
  return image && Object.fromEntries(Object.entries(image).map(([k, v]) => [k, toLambdaAttribute(v)]));
}

/**
 * One GetRecords record in the shape Lambda's DynamoDB event source gives a handler
 * (`ApproximateCreationDateTime` in epoch seconds, `eventSourceARN` = the stream ARN).
 */
export function toDynamoDbRecord(r: StreamsRecord, streamArn: string): DynamoDBRecord {
  const d = r.dynamodb ?? {};
  const created = d.ApproximateCreationDateTime as Date | number | undefined;
  return {
    eventID: r.eventID,
    eventName: r.eventName,
    eventVersion: r.eventVersion ?? '1.1',
    eventSource: r.eventSource ?? 'aws:dynamodb',
    awsRegion: r.awsRegion,
    dynamodb: {
      ...(created !== undefined && { ApproximateCreationDateTime: Math.floor(created instanceof Date ? created.getTime() / 1000 : created) }),
      Keys: toLambdaImage(d.Keys),
      ...(d.NewImage && { NewImage: toLambdaImage(d.NewImage) }),
      ...(d.OldImage && { OldImage: toLambdaImage(d.OldImage) }),
      SequenceNumber: d.SequenceNumber,
      SizeBytes: d.SizeBytes,
      StreamViewType: d.StreamViewType,
    },
    eventSourceARN: streamArn,
    ...(r.userIdentity && { userIdentity: { type: r.userIdentity.Type, principalId: r.userIdentity.PrincipalId } }),
  };
}

let fanoutHandler: Promise<(event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>> | undefined;

/**
 * Invokes `functions/webhook-fanout/handler.ts` (imported on first use, so the local runtime starts even
 * before that worker exists). Pass it as `invoke`.
 * @throws whatever the import or the handler throws (the poller then retries the batch)
 */
export async function invokeWebhookFanout(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const specifier = '#functions/webhook-fanout/handler';
  fanoutHandler ??= import(specifier).then((m) => m.handler).catch((err) => ((fanoutHandler = undefined), Promise.reject(err)));
  return invokeLocally(await fanoutHandler, event, 'webhook-fanout');
}
