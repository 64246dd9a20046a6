/**
 * Transactions (deals). The deal and what it owns form one item collection, `PK = ORG#<orgId>#TXN#<id>`:
 * `SK = TXN` (the deal), `KD#<type>` (key dates), `TASK#<id>` (tasks), `ACT#<iso>#<id>` (activity).
 * GSI1 `ORG#<orgId>#TXNS` / `<updatedAt>#<id>` lists deals by update time; GSI2
 * `ORG#<orgId>#TXNSTATUS#<status>` / `<updatedAt>#<id>` lists them by status; the search tokens of the address
 * (shared/db/search-index.ts) find them by words.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';
import { queryUpTo } from '#db/query-up-to';
import { batchGetInOrder } from '#db/batch';
import { dealIdsByWords, indexItem, searchDeals } from '#db/search-index';
import { searchPrefixes, searchWords } from '#domain/search-tokens';
import { gsi1, gsi2, txnPk } from '#db/keys';
import { transactWrite, type TransactItem } from '#db/transact';
import type { Actor } from '#events/outbox';
import { toKeyDate, type KeyDate } from '#db/key-date-items';
import { toTask, type Task } from '#db/task-items';
import { activityPut, toActivity, type Activity } from '#db/activity';
import { compareTransactionContacts, toTransactionContact, type TransactionContact } from '#db/contacts';
import { REMINDER_SK, toReminder, type Reminder } from '#db/reminders';
import { SUMMARY_SK, toStatusSummary, type StatusSummary } from '#db/status-summaries';
import { NotFound } from '#domain/errors';

export interface PropertyAddress {
  street: string;
  city: string | null;
  state: string | null;
  zip: string | null;
}

export interface Transaction {
  id: string;
  propertyAddress: PropertyAddress;
  address: string;
  transactionType: 'Sale' | 'Purchase' | 'Listing';
  side: 'Buyer' | 'Seller';
  status: string;
  notes: string | null;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  /** Incremented by every write to the deal or its children (optimistic concurrency; see `touchTransaction`). */
  version: number;
}

/** A deal with everything its item collection holds. */
export interface Deal extends Transaction {
  keyDates: KeyDate[];
  tasks: Task[];
  recentActivity: Activity[];
  /** Contacts linked with a role (`SK = CONTACT#<contactId>`), by role (Buyer, Seller, agents, escrow), primary first. */
  contacts: TransactionContact[];
  /** Deadline reminders (`SK = REMINDER#<id>`), soonest send first. */
  reminders: Reminder[];
  /** Status summaries, one per audience (`SK = SUMMARY#<audience>`), most recently saved first. */
  statusSummaries: StatusSummary[];
}

/** One-line address, e.g. `1207 Live Oak Ln, Austin, TX 78704`. */
export function formatAddress(a: PropertyAddress): string {
  const tail = [a.state, a.zip].filter(Boolean).join(' ');
  return [a.street, a.city, tail].filter(Boolean).join(', ');
}

/** GSI sort key that orders by update time, newest last (queries read it backwards). */
const byUpdate = (t: Pick<Transaction, 'updatedAt' | 'id'>) => `${t.updatedAt}#${t.id}`;

/** The deal item (also the index entries that list it). */
export function transactionItem(orgId: string, t: Transaction) {
  return {
    PK: txnPk(orgId, t.id),
    SK: 'TXN',
    entity: 'Transaction',
    orgId,
    ...t,
    searchText: `${t.address} ${t.status} ${t.notes ?? ''}`.toLowerCase(),
    GSI1PK: gsi1.transactions(orgId),
    GSI1SK: byUpdate(t),
    GSI2PK: gsi2.transactionsByStatus(orgId, t.status),
    GSI2SK: byUpdate(t),
  };
}

export function toTransaction(item: Record<string, any>): Transaction {
  const { id, propertyAddress, address, transactionType, side, status, notes, createdAt, updatedAt, closedAt, version } = item;
  return { id, propertyAddress, address, transactionType, side, status, notes: notes ?? null, createdAt, updatedAt, closedAt: closedAt ?? null, version: Number(version ?? 0) };
}

/** What a new deal states; the rest (id, address line, times, version) is set on creation. */
export type NewTransaction = Pick<Transaction, 'propertyAddress' | 'transactionType' | 'side' | 'status'> & { notes?: string | null };

/**
 * Writes a new deal (conditional on its absence) with the caller's `extra` writes (its event, key dates, tasks, ...)
 * in the same transaction, the deal's `Put` first.
 */
export async function insertTransaction(orgId: string, input: NewTransaction, extra: (t: Transaction) => TransactItem[], now: Date): Promise<Transaction> {
  const t: Transaction = {
    id: randomUUID(),
    propertyAddress: input.propertyAddress,
    address: formatAddress(input.propertyAddress),
    transactionType: input.transactionType,
    side: input.side,
    status: input.status,
    notes: input.notes ?? null,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    closedAt: null,
    version: 0,
  };
  await transactWrite([
    { Put: { TableName: tableName(), Item: transactionItem(orgId, t), ConditionExpression: 'attribute_not_exists(PK)' } },
    ...extra(t),
  ]);
  return t;
}

/** Options of `touchTransaction`. */
export interface TouchOptions {
  /** Attributes to set as well (names are escaped). */
  set?: Record<string, unknown>;
  /**
   * Optimistic concurrency: commit only if the deal's `version` is still this one (as read), so a write planned
   * from a stale read of the deal fails instead of overwriting a concurrent change.
   */
  expectedVersion?: number;
}

/**
 * The `Update` that bumps a deal's `updatedAt` (re-sorting it in the lists) and `version`, and fails when the deal
 * does not exist (or, with `expectedVersion`, changed since it was read), so a write to a missing, foreign or stale deal
 * commits nothing.
 */
export function touchTransaction(orgId: string, t: Pick<Transaction, 'id'>, now: Date, opts: TouchOptions = {}): TransactItem {
  const updatedAt = now.toISOString();
  const values: Record<string, unknown> = { ':u': updatedAt, ':g1': byUpdate({ updatedAt, id: t.id }), ':one': 1 };
  const names: Record<string, string> = {};
  const sets = ['updatedAt = :u', 'GSI1SK = :g1', 'GSI2SK = :g1'];
  Object.entries(opts.set ?? {}).forEach(([k, v], i) => {
    names[`#s${i}`] = k;
    values[`:s${i}`] = v;
    sets.push(`#s${i} = :s${i}`);
  });
  let condition = 'attribute_exists(PK)';
  if (opts.expectedVersion !== undefined) {
    // Deals written before versions existed have none: version 0.
    condition += opts.expectedVersion === 0 ? ' AND (attribute_not_exists(version) OR version = :v)' : ' AND version = :v';
    values[':v'] = opts.expectedVersion;
  }
  return {
    Update: {
      TableName: tableName(),
      Key: { PK: txnPk(orgId, t.id), SK: 'TXN' },
      UpdateExpression: `SET ${sets.join(', ')} ADD version :one`,
      ConditionExpression: condition,
      ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
      ExpressionAttributeValues: values,
    },
  };
}

/**
 * The attributes that change with a deal's status (for `touchTransaction`'s `set`): the status and its category,
 * `closedAt`, the search text and the by-status index partition.
 */
export function statusAttributes(orgId: string, t: Transaction, category: string): Record<string, unknown> {
  return { status: t.status, statusCategory: category, closedAt: t.closedAt, searchText: transactionItem(orgId, t).searchText, GSI2PK: gsi2.transactionsByStatus(orgId, t.status) };
}

/** A `ConditionCheck` that the deal exists (fails the transaction for a missing or foreign deal). */
export const transactionExistsCheck = (orgId: string, transactionId: string): TransactItem => ({
  ConditionCheck: { TableName: tableName(), Key: { PK: txnPk(orgId, transactionId), SK: 'TXN' }, ConditionExpression: 'attribute_exists(PK)' },
});

/** Reads every page of a query. */
export async function queryAll(input: QueryCommandInput): Promise<Record<string, any>[]> {
  const items: Record<string, any>[] = [];
  let ExclusiveStartKey: Record<string, any> | undefined;
  do {
    const out = await db().send(new QueryCommand({ ...input, ExclusiveStartKey }));
    items.push(...(out.Items ?? []));
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}

/** Activity entries a deal read returns (newest first). */
export const RECENT_ACTIVITY = 20;
/** Items per page of the deal read: most deals (head, key dates, tasks, contacts, documents) fit one page. */
const DEAL_PAGE = 100;

/**
 * The whole deal in one `Query` of its item collection, read newest sort key first: the head, tasks, key dates,
 * contacts and other children come before the activity log (`ACT#…` sorts first, so it comes last, newest first),
 * and the read stops once `RECENT_ACTIVITY` entries are in hand. A deal's size thus bounds the read, not the
 * length of its history; more pages are read only for a deal of more than ~80 children.
 * @throws NotFound when the deal is absent or another organization's
 */
export async function getDeal(orgId: string, transactionId: string): Promise<Deal> {
  const items: Record<string, any>[] = [];
  let activity = 0;
  let ExclusiveStartKey: Record<string, any> | undefined;
  do {
    const out = await db().send(
      new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': txnPk(orgId, transactionId) }, ScanIndexForward: false, Limit: DEAL_PAGE, ExclusiveStartKey }),
    );
    for (const item of out.Items ?? []) {
      if (String(item.SK).startsWith('ACT#') && ++activity > RECENT_ACTIVITY) break;
      items.push(item);
    }
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey && activity < RECENT_ACTIVITY);
  const head = items.find((i) => i.SK === 'TXN');
  if (!head) throw new NotFound('Transaction');
  const of = (prefix: string) => items.filter((i) => String(i.SK).startsWith(prefix));
  return {
    ...toTransaction(head),
    keyDates: of('KD#').map(toKeyDate).sort((a, b) => a.dateValue.localeCompare(b.dateValue)),
    tasks: of('TASK#').map(toTask).sort(byDue),
    recentActivity: of('ACT#').map(toActivity),
    contacts: of('CONTACT#').map(toTransactionContact).sort(compareTransactionContacts),
    reminders: of(REMINDER_SK).map(toReminder).sort((a, b) => a.sendAt.localeCompare(b.sendAt) || a.id.localeCompare(b.id)),
    statusSummaries: of(SUMMARY_SK).map(toStatusSummary).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.audience.localeCompare(b.audience)),
  };
}

/** Soonest due first, undated last, then oldest first. */
export const byDue = (a: Task, b: Task) => (a.dueDate ?? '9999').localeCompare(b.dueDate ?? '9999') || a.createdAt.localeCompare(b.createdAt);

/**
 * A page of deals, most recently updated first, optionally of one status (GSI2). With a text `q` (each of its words
 * starts a word of the address), the deals matching it, most recently created first, from the search-token index
 * (shared/db/search-index.ts). Reads only as far as the requested page (plus one item to know whether more exist).
 */
export async function listTransactions(orgId: string, opts: { q?: string; status?: string; page: number; pageSize: number }) {
  const wanted = opts.page * opts.pageSize + 1;
  const start = (opts.page - 1) * opts.pageSize;
  const page = (found: Record<string, any>[]) => ({
    data: found.slice(start, start + opts.pageSize).map(toTransaction),
    page: opts.page,
    pageSize: opts.pageSize,
    hasMore: found.length > start + opts.pageSize,
  });
  if (opts.q?.trim()) {
    const status = opts.status?.toLowerCase();
    return page(await searchDeals(orgId, opts.q, wanted, status ? (d) => String(d.status).toLowerCase() === status : undefined));
  }
  const base: QueryCommandInput = opts.status
    ? { TableName: tableName(), IndexName: 'GSI2', KeyConditionExpression: 'GSI2PK = :pk', ExpressionAttributeValues: { ':pk': gsi2.transactionsByStatus(orgId, opts.status) } }
    : { TableName: tableName(), IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :pk', ExpressionAttributeValues: { ':pk': gsi1.transactions(orgId) } };
  return page(await queryUpTo({ ...base, ScanIndexForward: false, Limit: wanted }, wanted));
}

/** Candidate deals read per address word by {@link findDealsByAddress}. */
const CANDIDATES_PER_WORD = 50;
/** Candidate deals {@link findDealsByAddress} reads without a status: the most `resolve` returns (`limit` ≤ 25). */
const CANDIDATES_READ = 25;

/**
 * Deals that may match a free-text property address, for `GET /transactions/resolve` to rank: the newest
 * `CANDIDATES_PER_WORD` deals with the query's house number and with each of its three longest other words (from
 * the search-token index), optionally of one status (any letter case). Without a status only the
 * `CANDIDATES_READ` whose words match most of the query's are read; with one, every candidate (the status is on the
 * deal). At most four index queries and one `BatchGetItem` of up to 25 deals (200 with a status), whatever the
 * organization's size.
 */
export async function findDealsByAddress(orgId: string, property: string, status?: string): Promise<Transaction[]> {
  const words = searchWords(property);
  const number = words.find((w) => /^\d+$/.test(w));
  const others = words.filter((w) => w !== number && w.length >= 3).sort((a, b) => b.length - a.length).slice(0, 3);
  // Each lookup word as the index holds it: a short word whole, a long one cut to its longest indexed prefix.
  const lookups = [number, ...others].filter((w): w is string => w !== undefined).map((w) => searchPrefixes([w]).at(-1)!);
  const candidates = await dealIdsByWords(orgId, [...new Set(lookups)], CANDIDATES_PER_WORD, words);
  const ids = status ? candidates : candidates.slice(0, CANDIDATES_READ);
  const heads = await batchGetInOrder(ids.map((id) => ({ PK: txnPk(orgId, id), SK: 'TXN' })));
  const wanted = status?.toLowerCase();
  return heads.filter((d) => !wanted || String(d.status).toLowerCase() === wanted).map(toTransaction);
}

/** Replaces the deal's notes (null clears) and records the change in its activity log. */
export async function updateNotes(actor: Actor, t: Transaction, notes: string | null, now: Date): Promise<Transaction> {
  const updated = { ...t, notes, updatedAt: now.toISOString(), version: t.version + 1 };
  const { put } = activityPut(actor.orgId, { transactionId: t.id, type: 'notes_updated', summary: notes === null ? 'Notes cleared' : 'Notes updated', details: null, userId: actor.userId }, now);
  await transactWrite(
    [touchTransaction(actor.orgId, t, now, { set: { notes, searchText: transactionItem(actor.orgId, updated).searchText } }), put],
    () => new NotFound('Transaction'),
  );
  // An update, not a put, so transactWrite does not see the deal: its tokens follow the new notes here.
  await indexItem(transactionItem(actor.orgId, updated), false);
  return updated;
}

/**
 * The deal item alone (one `GetItem`), without its collection.
 * @throws NotFound when absent or another organization's
 */
export async function getTransactionHead(orgId: string, transactionId: string): Promise<Transaction> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: txnPk(orgId, transactionId), SK: 'TXN' } }));
  if (!out.Item) throw new NotFound('Transaction');
  return toTransaction(out.Item);
}
