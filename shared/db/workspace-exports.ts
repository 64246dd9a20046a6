/**
 * The organization's latest workspace export: one item, `PK = ORG#<orgId>`, `SK = EXPORT`, replaced by each new
 * export. Starting one is a conditional put that fails while another is `building` (spec "Limits": one export at a
 * time), unless that one is stale (its worker gave up).
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';
import { orgPk } from '#db/keys';
import { setExpression } from '#db/set-expression';
import { transactWrite, type TransactItem } from '#db/transact';

/** An export. Times ISO UTC; `sizeBytes` bytes of the zip. */
export interface WorkspaceExport {
  exportId: string;
  orgId: string;
  state: 'building' | 'completed' | 'failed';
  requestedAt: string;
  requestedBy: string;
  completedAt: string | null;
  /** When the archive and its emailed link stop working (set when completed). */
  expiresAt: string | null;
  /** The archive's object key (set when completed; never shown to callers). */
  s3Key: string | null;
  sizeBytes: number | null;
  recordCount: number | null;
  documentCount: number | null;
  /** Why it failed (safe to show), else null. */
  error: string | null;
}

const key = (orgId: string) => ({ PK: orgPk(orgId), SK: 'EXPORT' });

/** The latest export, or undefined when the organization never exported. */
export async function getLatestExport(orgId: string, consistent = false): Promise<WorkspaceExport | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: key(orgId), ConsistentRead: consistent }));
  if (!out.Item) return undefined;
  const { PK: _pk, SK: _sk, entity: _e, ...rest } = out.Item;
  return rest as WorkspaceExport;
}

/**
 * Starts `e` (state `building`) unless another export is building and was requested after `staleBefore`, in one
 * transaction with `also` (the request of its build schedule).
 * @returns `{ started: true }`, or `{ started: false, running }` with the export still building
 */
export async function startExport(e: WorkspaceExport, staleBefore: Date, also: TransactItem[] = []): Promise<{ started: true } | { started: false; running: WorkspaceExport }> {
  const busy = new Error('another export is building');
  try {
    await transactWrite(
      [
        {
          Put: {
            TableName: tableName(),
            Item: { ...key(e.orgId), entity: 'WorkspaceExport', ...e },
            ConditionExpression: 'attribute_not_exists(PK) OR #state <> :building OR requestedAt < :stale',
            ExpressionAttributeNames: { '#state': 'state' },
            ExpressionAttributeValues: { ':building': 'building', ':stale': staleBefore.toISOString() },
          },
        },
        ...also,
      ],
      () => busy,
    );
    return { started: true };
  } catch (err) {
    if (err !== busy) throw err;
    const running = await getLatestExport(e.orgId, true);
    if (!running) throw err;
    return { started: false, running };
  }
}

/**
 * Finishes export `exportId` (only while it is the latest and building).
 * @returns false when it is no longer the latest building export (superseded, or the workspace was purged)
 */
export async function finishExport(
  orgId: string,
  exportId: string,
  result: Pick<WorkspaceExport, 'state' | 'completedAt' | 'expiresAt' | 's3Key' | 'sizeBytes' | 'recordCount' | 'documentCount' | 'error'>,
): Promise<boolean> {
  const update = setExpression(result);
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key(orgId),
        UpdateExpression: update.expression,
        ConditionExpression: 'exportId = :id AND #state = :building',
        ExpressionAttributeNames: { ...update.names, '#state': 'state' },
        ExpressionAttributeValues: { ...update.values, ':id': exportId, ':building': 'building' },
      }),
    );
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}
