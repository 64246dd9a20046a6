/**
 * Daily usage of an API key: `PK = ORG#<orgId>#USAGE#<keyId>`, `SK = DAY#<YYYY-MM-DD>` with `calls`,
 * `errors` and `op_<operationId>` counters, kept 90 days (TTL). Finished one-minute rate-limit windows are
 * folded in when a key's window rolls over (see `api-keys.ts`); the running window is added at read time.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';
import { usagePk } from '#db/keys';
import type { ApiKeyItem, Principal } from '#db/api-keys';

const RETENTION_DAYS = 90;

const dayOfMinute = (minute: number) => new Date(minute * 60_000).toISOString().slice(0, 10);

/**
 * The `Update` (for a `TransactWriteItems`) that adds a finished window's counters to its day's item, or
 * null when the window counted nothing.
 */
export function usageDayUpdate(old: ApiKeyItem) {
  const calls = (old.rlR ?? 0) + (old.rlW ?? 0);
  if (old.rlWin === undefined || calls === 0) return null;
  const day = dayOfMinute(old.rlWin);
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {
    ':calls': calls,
    ':errors': old.rlErr ?? 0,
    ':org': old.orgId,
    ':key': old.keyId,
    ':day': day,
    ':ttl': Math.floor(Date.parse(day) / 1000) + RETENTION_DAYS * 86_400,
  };
  const adds = ['calls :calls', 'errors :errors'];
  Object.keys(old)
    .filter((k) => k.startsWith('op_'))
    .forEach((k, i) => {
      names[`#o${i}`] = k;
      values[`:o${i}`] = Number(old[k as `op_${string}`]);
      adds.push(`#o${i} :o${i}`);
    });
  return {
    TableName: tableName(),
    Key: { PK: usagePk(old.orgId, old.keyId), SK: `DAY#${day}` },
    UpdateExpression: `SET entity = :entity, orgId = :org, keyId = :key, #day = :day, #ttl = :ttl ADD ${adds.join(', ')}`,
    ExpressionAttributeNames: { ...names, '#day': 'day', '#ttl': 'ttl' },
    ExpressionAttributeValues: { ...values, ':entity': 'UsageDay' },
  };
}

export interface UsageReport {
  days: number;
  totalCalls: number;
  errorCount: number;
  errorRate: number;
  daily: { date: string; calls: number; errors: number }[];
  topOperations: { operation: string; calls: number }[];
}

/**
 * Usage of the calling key over the last `days` days (UTC), including the running window.
 * @param now epoch milliseconds
 */
export async function readUsage(principal: Principal, days: number, now = Date.now()): Promise<UsageReport> {
  const from = new Date(now - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND SK >= :from',
      ExpressionAttributeValues: { ':pk': usagePk(principal.orgId, principal.keyId), ':from': `DAY#${from}` },
    }),
  );
  const byDay = new Map<string, { calls: number; errors: number }>();
  const ops = new Map<string, number>();
  const add = (day: string, calls: number, errors: number, opCounts: [string, number][]) => {
    const d = byDay.get(day) ?? { calls: 0, errors: 0 };
    d.calls += calls;
    d.errors += errors;
    byDay.set(day, d);
    opCounts.forEach(([op, n]) => ops.set(op, (ops.get(op) ?? 0) + n));
  };
  for (const item of out.Items ?? []) {
    const opCounts = Object.entries(item)
      .filter(([k]) => k.startsWith('op_'))
      .map(([k, v]) => [k.slice(3), Number(v)] as [string, number]);
    add(String(item.day), Number(item.calls ?? 0), Number(item.errors ?? 0), opCounts);
  }
  const w = principal.window;
  const runningDay = dayOfMinute(w.minute);
  if (runningDay >= from) add(runningDay, w.reads + w.writes, w.errors, Object.entries(w.ops));
  const daily = [...byDay.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([date, v]) => ({ date, ...v }));
  const totalCalls = daily.reduce((s, d) => s + d.calls, 0);
  const errorCount = daily.reduce((s, d) => s + d.errors, 0);
  return {
    days,
    totalCalls,
    errorCount,
    errorRate: totalCalls ? Math.round((errorCount / totalCalls) * 10_000) / 10_000 : 0,
    daily,
    topOperations: [...ops.entries()]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, 10)
      .map(([operation, calls]) => ({ operation, calls })),
  };
}
