/**
 * The raw baseline: the DynamoDB calls each benchmarked operation needs, issued directly with the same
 * document client the handlers use (no HTTP, no middy, no validation, no mapping). Each call is timed;
 * an iteration's total is the "raw sum" the HTTP latency is compared with.
 *
 * Shapes mirror the repositories: the auth+rate-limit `UpdateItem` of `authenticateAndCount` (fast path),
 * the item-collection `Query` of `getDeal`, the GSI1 `Query` (`Limit` page+1) of `listTransactions`, and
 * the `TransactWriteItems` of `upsertKeyDates` (touch the deal, put the key date, put the outbox event,
 * move each open task linked to that key date).
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { QueryCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { RATE_LIMITS, hashKey, type Bucket } from '#db/api-keys';
import { apiKeyPk, eventPk, gsi1, txnPk } from '#db/keys';
import { addDays } from '#domain/calendar';

export interface RawContext {
  doc: DynamoDBDocumentClient;
  table: string;
  orgId: string;
  userId: string;
}

export interface RawIteration {
  /** Per call, in order: command label and latency (ms). */
  calls: { name: string; ms: number }[];
  totalMs: number;
}

async function timed<T>(calls: RawIteration['calls'], name: string, fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  const out = await fn();
  calls.push({ name, ms: performance.now() - t0 });
  return out;
}

const finish = (calls: RawIteration['calls']): RawIteration => ({ calls, totalMs: calls.reduce((a, c) => a + c.ms, 0) });

/** The auth + rate-limit `UpdateItem` on the key item, exactly as `authenticateAndCount`'s fast path sends it. */
export function rawAuth(ctx: RawContext, keyValue: string, bucket: Bucket, operationId: string, now = Date.now()) {
  return ctx.doc.send(
    new UpdateCommand({
      TableName: ctx.table,
      Key: { PK: apiKeyPk(hashKey(keyValue)), SK: 'APIKEY' },
      UpdateExpression: 'ADD #cnt :one, #op :one',
      ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(revokedAt) AND rlWin = :win AND #cnt < :max',
      ExpressionAttributeNames: { '#cnt': bucket === 'read' ? 'rlR' : 'rlW', '#op': `op_${operationId}` },
      ExpressionAttributeValues: { ':one': 1, ':win': Math.floor(now / 60_000), ':max': RATE_LIMITS[bucket] },
      ReturnValues: 'ALL_NEW',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    }),
  );
}

const collectionQuery = (ctx: RawContext, transactionId: string) =>
  ctx.doc.send(new QueryCommand({ TableName: ctx.table, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': txnPk(ctx.orgId, transactionId) } }));

/** Raw `GET /transactions/{id}`: auth `UpdateItem` + the deal's item-collection `Query`. */
export async function rawGetTransaction(ctx: RawContext, keyValue: string, transactionId: string): Promise<RawIteration> {
  const calls: RawIteration['calls'] = [];
  await timed(calls, 'UpdateItem (auth)', () => rawAuth(ctx, keyValue, 'read', 'getTransaction'));
  const out = await timed(calls, 'Query (collection)', () => collectionQuery(ctx, transactionId));
  if (!out.Items?.some((i) => i.SK === 'TXN')) throw new Error(`raw: deal ${transactionId} not found`);
  return finish(calls);
}

/** Raw `GET /transactions?pageSize=25`: auth `UpdateItem` + GSI1 `Query` newest first, `Limit` 26. */
export async function rawListTransactions(ctx: RawContext, keyValue: string, pageSize = 25): Promise<RawIteration> {
  const calls: RawIteration['calls'] = [];
  await timed(calls, 'UpdateItem (auth)', () => rawAuth(ctx, keyValue, 'read', 'listTransactions'));
  const out = await timed(calls, 'Query (GSI1, Limit 26)', () =>
    ctx.doc.send(
      new QueryCommand({
        TableName: ctx.table,
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': gsi1.transactions(ctx.orgId) },
        ScanIndexForward: false,
        Limit: pageSize + 1,
      }),
    ),
  );
  if ((out.Items?.length ?? 0) < pageSize) throw new Error(`raw: expected ${pageSize}+ deals, got ${out.Items?.length}`);
  return finish(calls);
}

/**
 * Raw `POST /transactions/{id}/key-dates` changing one key date: auth `UpdateItem` + collection `Query` +
 * one `TransactWriteItems` of the same shape the handler commits (deal touch, key-date put, outbox put,
 * one update per open task linked to that key date).
 */
export async function rawUpsertKeyDate(ctx: RawContext, keyValue: string, transactionId: string, keyDateType: string, dateValue: string): Promise<RawIteration & { transactItems: number }> {
  const calls: RawIteration['calls'] = [];
  await timed(calls, 'UpdateItem (auth)', () => rawAuth(ctx, keyValue, 'write', 'upsertKeyDates'));
  const { Items = [] } = await timed(calls, 'Query (collection)', () => collectionQuery(ctx, transactionId));
  const now = new Date();
  const updatedAt = now.toISOString();
  const prev = Items.find((i) => i.SK === `KD#${keyDateType}`);
  if (!prev || !Items.some((i) => i.SK === 'TXN')) throw new Error(`raw: deal ${transactionId} or its ${keyDateType} not found`);
  const linked = Items.filter((i) => String(i.SK).startsWith('TASK#') && i.status === 'open' && i.linkedMilestoneName === keyDateType);
  const eventId = randomUUID();
  const items: NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']> = [
    {
      Update: {
        TableName: ctx.table,
        Key: { PK: txnPk(ctx.orgId, transactionId), SK: 'TXN' },
        UpdateExpression: 'SET updatedAt = :u, GSI1SK = :g1, GSI2SK = :g1',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':u': updatedAt, ':g1': `${updatedAt}#${transactionId}` },
      },
    },
    { Put: { TableName: ctx.table, Item: { ...prev, dateValue, updatedAt, GSI1SK: `${dateValue}#${transactionId}#${keyDateType}` } } },
    {
      Put: {
        TableName: ctx.table,
        Item: {
          PK: eventPk(ctx.orgId, eventId),
          SK: 'EVENT',
          entity: 'OutboxEvent',
          orgId: ctx.orgId,
          envelope: {
            eventType: 'key_date.updated',
            eventId,
            timestamp: updatedAt,
            organizationId: ctx.orgId,
            userId: ctx.userId,
            data: { transactionId, keyDateType, dateValue, previousValue: prev.dateValue },
          },
          ttl: Math.floor(now.getTime() / 1000) + 7 * 86_400,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    ...linked.map((t) => {
      const due = addDays(dateValue, Number(t.dueOffsetDays ?? 0));
      return {
        Update: {
          TableName: ctx.table,
          Key: { PK: t.PK, SK: t.SK },
          UpdateExpression: 'SET dueDate = :d, GSI1SK = :g',
          ConditionExpression: 'attribute_exists(SK)',
          ExpressionAttributeValues: { ':d': due, ':g': `${due}#${t.id}` },
        },
      };
    }),
  ];
  await timed(calls, `TransactWriteItems (${items.length} items)`, () => ctx.doc.send(new TransactWriteCommand({ TransactItems: items })));
  return { ...finish(calls), transactItems: items.length };
}
