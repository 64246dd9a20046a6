/**
 * Activity log entries of a deal: `PK = ORG#<orgId>#TXN#<id>`, `SK = ACT#<iso time>#<id>` (time order).
 */
import { randomUUID } from 'node:crypto';
import { tableName } from '#db/client';
import { timeSk, txnPk } from '#db/keys';

export interface Activity {
  id: string;
  transactionId: string;
  type: string;
  summary: string;
  details: string | null;
  userId: string | null;
  createdAt: string;
}

/** The `Put` of a new activity entry (for the transaction that makes the change it records). */
export function activityPut(orgId: string, a: Omit<Activity, 'id' | 'createdAt'>, now: Date) {
  const entry: Activity = { ...a, id: randomUUID(), createdAt: now.toISOString() };
  return {
    entry,
    put: {
      Put: {
        TableName: tableName(),
        Item: { PK: txnPk(orgId, a.transactionId), SK: timeSk('ACT', entry.createdAt, entry.id), entity: 'Activity', orgId, ...entry },
      },
    },
  };
}

export function toActivity(item: Record<string, any>): Activity {
  const { id, transactionId, type, summary, details, userId, createdAt } = item;
  return { id, transactionId, type, summary, details: details ?? null, userId: userId ?? null, createdAt };
}
