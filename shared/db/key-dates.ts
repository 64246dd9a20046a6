/**
 * Key-date reads: a deal's dates and the upcoming dates of all deals (GSI1). The items and their `Put` are in
 * shared/db/key-date-items.ts; the writes that set key dates, move the tasks that follow them and emit
 * `key_date.updated` are planned by shared/use-cases/key-dates.ts.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';
import { gsi1 } from '#db/keys';
import { toKeyDate, type KeyDate } from '#db/key-date-items';
import { getDeal } from '#db/transactions';
import { addDays, dayNumber } from '#domain/calendar';

/** A deal's key dates, soonest first. */
export async function listKeyDates(orgId: string, transactionId: string): Promise<KeyDate[]> {
  return (await getDeal(orgId, transactionId)).keyDates;
}

/**
 * Open key dates of all deals from `fromDate` to `fromDate + horizonDays` inclusive, soonest first (GSI1, sparse:
 * completed dates are not in it). Reads pages of `limit` items, so the items read are about `limit` whatever the
 * organization's size; the filter only drops completed dates written before the index was sparse (until
 * `npm run admin -- table backfill-indexes` runs, docs/indexes.md).
 * @param fromDate `YYYY-MM-DD`
 */
export async function listUpcomingKeyDates(orgId: string, fromDate: string, horizonDays: number, limit: number): Promise<(KeyDate & { daysUntil: number })[]> {
  const until = addDays(fromDate, horizonDays);
  const found: KeyDate[] = [];
  let ExclusiveStartKey: Record<string, any> | undefined;
  do {
    const out = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK BETWEEN :from AND :to',
        FilterExpression: 'attribute_not_exists(completedAt) OR completedAt = :null',
        ExpressionAttributeValues: { ':pk': gsi1.keyDates(orgId), ':from': fromDate, ':to': `${until}~`, ':null': null },
        Limit: limit - found.length,
        ExclusiveStartKey,
      }),
    );
    found.push(...(out.Items ?? []).map(toKeyDate));
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey && found.length < limit);
  return found.slice(0, limit).map((k) => ({ ...k, daysUntil: dayNumber(k.dateValue) - dayNumber(fromDate) }));
}
