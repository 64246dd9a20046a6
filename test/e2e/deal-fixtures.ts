/**
 * Fixtures shared by the deal-, tasks-, key-dates- and isolation- e2e files: deals made through the
 * repository (POST /transactions is not built yet), outbox reads, and a ticking pinned clock.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';
import { type Transaction } from '#db/transactions';
import { createTransaction } from '#use-cases/create-transaction';
import { setClock } from '#ports/clock';
import type { EventEnvelope } from '#events/outbox';
import type { EventType } from '#events/catalog';
import type { TestApi, TestOrg } from '../support/http-client.ts';

/** A deal of `org` at `street` (Austin, TX 78704), status `Prospect` unless given. */
export function createDeal(org: TestOrg, street: string, opts: { status?: string; at?: Date; city?: string } = {}): Promise<Transaction> {
  return createTransaction(
    { orgId: org.orgId, userId: org.ownerUserId },
    { propertyAddress: { street, city: opts.city ?? 'Austin', state: 'TX', zip: '78704' }, transactionType: 'Purchase', side: 'Buyer', status: opts.status ?? 'Prospect' },
    () => [],
    opts.at ?? new Date(),
  );
}

/** Every outbox event of the organization, oldest first (optionally of one type, then typed by it). */
export async function outboxEvents<T extends EventType = EventType>(orgId: string, eventType?: T): Promise<EventEnvelope<T>[]> {
  const items: Record<string, any>[] = [];
  let ExclusiveStartKey: Record<string, any> | undefined;
  do {
    const out = await db().send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: 'entity = :e AND orgId = :o',
        ExpressionAttributeValues: { ':e': 'OutboxEvent', ':o': orgId },
        ExclusiveStartKey,
      }),
    );
    items.push(...(out.Items ?? []));
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items
    .map((i) => i.envelope as EventEnvelope<T>)
    .filter((e) => !eventType || e.eventType === eventType)
    .sort((a, b) => a.timestamp.localeCompare(b.timestamp));
}

/** Events of one type about one transaction. */
export async function eventsFor<T extends EventType>(orgId: string, eventType: T, transactionId: string): Promise<EventEnvelope<T>[]> {
  return (await outboxEvents(orgId, eventType)).filter((e) => (e.data as { transactionId?: string | null }).transactionId === transactionId);
}

/**
 * Pins the request clock to `iso` and lets it tick with real time (so timestamps of successive requests
 * stay ordered). Restore with `setClock()`.
 */
export function pinClock(iso: string): void {
  const base = Date.parse(iso);
  const start = Date.now();
  setClock(() => base + (Date.now() - start));
}

/** Adds `days` to a `YYYY-MM-DD` date. */
export const plusDays = (date: string, days: number): string => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** POSTs key dates and expects 200. */
export async function putKeyDates(t: TestApi, key: string, transactionId: string, keyDates: { keyDateType: string; dateValue: string; label?: string | null; isCustom?: boolean }[]) {
  const r = await t.call('POST', `/api/v1/transactions/${transactionId}/key-dates`, { key, body: { keyDates } });
  if (r.status !== 200) throw new Error(`key-date upsert failed: ${r.status} ${r.text}`);
  return r.body.data as any[];
}

/** POSTs a task and expects 200. */
export async function postTask(t: TestApi, key: string, transactionId: string, body: Record<string, unknown>) {
  const r = await t.call('POST', `/api/v1/transactions/${transactionId}/tasks`, { key, body });
  if (r.status !== 200) throw new Error(`task create failed: ${r.status} ${r.text}`);
  return r.body.data as any;
}
