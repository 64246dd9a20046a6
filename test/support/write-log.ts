/**
 * Counts the writes the app's own DynamoDB client completes (`db()`, in this process when the local API runs in the
 * test) and every object change of the local S3 (s3rver's own events: the app reaches S3 both through the S3 client
 * and with presigned `fetch` requests, shared/ports/s3-object-requests.ts), so a caller knows the table and bucket are
 * unchanged without scanning them. Writes the request pipeline makes on every request (`isPipelineKey`) are not counted. A write that
 * failed (a conditional check, a cancelled transaction) is not counted either: it stored nothing.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { LocalS3 } from '#lib/local/s3-local';
import { isPipelineKey } from './table-snapshot.ts';

type AttributeMap = Record<string, unknown> | undefined;

/** The sort key of an item or key, marshalled (`{S: 'x'}`) or not. */
function sortKeyOf(item: AttributeMap): string | undefined {
  const sk = item?.SK;
  if (typeof sk === 'string') return sk;
  return typeof sk === 'object' && sk !== null && typeof (sk as { S?: unknown }).S === 'string' ? (sk as { S: string }).S : undefined;
}

/** The sort keys a DynamoDB write command touches; `[undefined]` when the command is not understood (counted). */
function writtenSortKeys(command: string, input: Record<string, any>): (string | undefined)[] {
  switch (command) {
    case 'PutItemCommand':
    case 'PutCommand':
      return [sortKeyOf(input.Item)];
    case 'UpdateItemCommand':
    case 'UpdateCommand':
    case 'DeleteItemCommand':
    case 'DeleteCommand':
      return [sortKeyOf(input.Key)];
    case 'TransactWriteItemsCommand':
    case 'TransactWriteCommand':
      return (input.TransactItems ?? []).flatMap((t: Record<string, any>) =>
        t.ConditionCheck ? [] : [sortKeyOf(t.Put?.Item ?? t.Update?.Key ?? t.Delete?.Key)],
      );
    case 'BatchWriteItemCommand':
    case 'BatchWriteCommand':
      return Object.values(input.RequestItems ?? {}).flatMap((reqs) => (reqs as Record<string, any>[]).map((r) => sortKeyOf(r.PutRequest?.Item ?? r.DeleteRequest?.Key)));
    default:
      return DB_READS.has(command) ? [] : [undefined];
  }
}

/** DynamoDB commands that store nothing (base and document-client names); any other unknown command is counted. */
const DB_READS = new Set(
  ['GetItem', 'Get', 'Query', 'Scan', 'BatchGetItem', 'BatchGet', 'TransactGetItems', 'TransactGet', 'DescribeTable'].map((n) => `${n}Command`),
);

export class WriteLog {
  /** Completed writes of stored state so far (not the pipeline's own items). */
  count = 0;
  /** Of those, the object changes of the local S3. */
  fileEvents = 0;
  /** The last ones, for a failure report. */
  readonly recent: string[] = [];

  private record(what: string) {
    this.count++;
    this.recent.push(what);
    if (this.recent.length > 10) this.recent.shift();
  }

  /** Starts counting the completed writes of `client` (call again after `resetDbClient()`: a new client). */
  watchDb(client: DynamoDBDocumentClient): void {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const out = await next(args);
        const keys = writtenSortKeys(context.commandName ?? '', args.input as Record<string, any>);
        for (const sk of keys) if (sk === undefined || !isPipelineKey(sk)) this.record(`${context.commandName} ${sk ?? '?'}`);
        return out;
      },
      { step: 'initialize', name: 'testWriteLog' },
    );
  }

  /** Starts counting every object `s3` stores or removes, whichever client asked. */
  watchS3(s3: Pick<LocalS3, 'onObjectEvent'>): void {
    s3.onObjectEvent((eventName, key) => {
      this.fileEvents++;
      this.record(`${eventName} ${key}`);
    });
  }
}
