/**
 * Where the seconds of the webhook bench's throughput phase go (bench/webhooks.ts): the CPU the phase cost the Node
 * process and DynamoDB Local's JVM, and how long each retry really waited against its scheduled delay, read back
 * from the attempt items (shared/db/webhook-deliveries.ts: `attemptedAt` and `nextRetryAt` of each attempt).
 */
import { readFileSync } from 'node:fs';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';
import { webhookPk } from '#db/keys';
import { percentile } from './stats.ts';

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ: 100 on Linux). */
const USER_HZ = 100;

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat; NaN when unreadable (not Linux, gone). */
export function processCpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / USER_HZ;
  } catch {
    return NaN;
  }
}

/** CPU seconds of this process (user + system). */
export const ownCpuSeconds = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/** One retry: how long after the failed attempt the next one started, against the delay that attempt scheduled (ms). */
export interface RetryGap {
  actualMs: number;
  scheduledMs: number;
  /** When the retry started (epoch ms). */
  atMs: number;
}

/**
 * The retries of a subscription's deliveries: for each attempt n > 1, the time from attempt n − 1's `attemptedAt` to
 * its own, beside the delay attempt n − 1 scheduled (`nextRetryAt − attemptedAt`).
 */
export async function retryGaps(orgId: string, subscriptionId: string): Promise<RetryGap[]> {
  const byDelivery = new Map<string, { attempt: number; at: number; next: number | null }[]>();
  let ExclusiveStartKey: Record<string, any> | undefined;
  do {
    const out = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :a)',
        ExpressionAttributeValues: { ':pk': webhookPk(orgId, subscriptionId), ':a': 'ATT#' },
        ProjectionExpression: 'eventId, deliveryId, attempt, attemptedAt, nextRetryAt',
        ExclusiveStartKey,
      }),
    );
    for (const i of out.Items ?? []) {
      const id = i.deliveryId ?? i.eventId;
      byDelivery.set(id, [...(byDelivery.get(id) ?? []), { attempt: i.attempt, at: Date.parse(i.attemptedAt), next: i.nextRetryAt ? Date.parse(i.nextRetryAt) : null }]);
    }
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  const gaps: RetryGap[] = [];
  for (const attempts of byDelivery.values()) {
    attempts.sort((a, b) => a.attempt - b.attempt);
    for (let i = 1; i < attempts.length; i++) {
      const prev = attempts[i - 1];
      if (prev.next !== null && attempts[i].attempt === prev.attempt + 1) gaps.push({ actualMs: attempts[i].at - prev.at, scheduledMs: prev.next - prev.at, atMs: attempts[i].at });
    }
  }
  return gaps;
}

/** p50 / p90 / max of the retries' waits beyond their scheduled delay, in ms. */
export function retryExcess(gaps: RetryGap[]): { retries: number; p50Ms: number; p90Ms: number; maxMs: number } {
  const excess = gaps.map((g) => g.actualMs - g.scheduledMs);
  return { retries: gaps.length, p50Ms: percentile(excess, 50), p90Ms: percentile(excess, 90), maxMs: excess.length ? Math.max(...excess) : NaN };
}
