/**
 * The search-token index of deals and contacts: text search with a bounded read, without a search engine.
 *
 * Each deal (by its address) and each contact (names, email, company, phone numbers) has one token item per
 * normalised prefix of its words (shared/domain/search-tokens.ts) in its own partition
 * `PK = <owner PK>#SEARCH`, `SK = Q#<prefix>`, carrying the owner's id and all its words. Token items are in GSI1:
 * - deals: `ORG#<orgId>#DEALQ#<prefix>` / `<createdAt>#<transactionId>` (read newest first);
 * - contacts: `ORG#<orgId>#CONTACTQ#<prefix>` / `<lower-cased name>#<contactId>` (read by name), with the
 *   contact's `type`.
 * A query is looked up under its longest word's prefix and the other words are checked on the token item's words,
 * so a search reads about as many items as it returns, whatever the organization's size.
 *
 * The tokens are derived data, like a GSI entry: `transactWrite` (shared/db/transact.ts) writes them after a
 * transaction that puts a deal or a contact commits ({@link indexCommitted}); `npm run admin -- table backfill-indexes`
 * writes them for items stored before the index existed or left without tokens by a crash between the two writes
 * (docs/indexes.md).
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';
import { batchGetInOrder, batchWrite } from '#db/batch';
import { contactPk, gsi1, searchTokensPk, txnPk } from '#db/keys';
import { lookupPrefix, matchesWords, phoneTokens, searchPrefixes, searchWords } from '#domain/search-tokens';

/** What the deal tokens are made of (a deal item or a `Transaction`). */
export interface SearchableDeal {
  id: string;
  address: string;
  notes?: string | null;
  createdAt: string;
}

/** What the contact tokens are made of (a contact item or a `Contact`). */
export interface SearchableContact {
  id: string;
  type: string;
  name: string;
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
  company?: string | null;
  phone?: string | null;
}

/** Most distinct words of a deal's notes that are indexed: notes run to 50,000 characters, tokens cost a write each. */
export const MAX_NOTE_WORDS = 40;

/** The words a deal is found by: those of its one-line address, then the first {@link MAX_NOTE_WORDS} distinct words of its notes. */
export const dealSearchWords = (d: Pick<SearchableDeal, 'address' | 'notes'>): string[] => [...new Set([...searchWords(d.address), ...searchWords(d.notes).slice(0, MAX_NOTE_WORDS)])];

/** The words a contact is found by: its names, email, company, and its phone number's digit tokens. */
export function contactSearchWords(c: SearchableContact): string[] {
  const text = [c.name, c.firstName, c.lastName, c.email, c.company].filter(Boolean).join(' ');
  return [...new Set([...searchWords(text), ...phoneTokens(c.phone)])];
}

const TOKEN_PREFIX = 'Q#';

/** One token item per prefix of `words`, in the owner's token partition, each in GSI1 at `partitionOf(prefix)` / `sortKey`. */
function tokenItems(ownerPk: string, words: string[], partitionOf: (prefix: string) => string, sortKey: string, attributes: Record<string, unknown>): Record<string, unknown>[] {
  return searchPrefixes(words).map((prefix) => ({ PK: searchTokensPk(ownerPk), SK: `${TOKEN_PREFIX}${prefix}`, ...attributes, words: words.join(' '), GSI1PK: partitionOf(prefix), GSI1SK: sortKey }));
}

/** A deal's token items (one per prefix of its address words), newest-created first in GSI1. */
export const dealTokenItems = (orgId: string, d: SearchableDeal): Record<string, unknown>[] =>
  tokenItems(txnPk(orgId, d.id), dealSearchWords(d), (p) => gsi1.dealSearch(orgId, p), `${d.createdAt}#${d.id}`, { entity: 'DealSearchToken', orgId, transactionId: d.id });

/** A contact's token items (one per prefix of its words), sorted by its name in GSI1, with its type. */
export const contactTokenItems = (orgId: string, c: SearchableContact): Record<string, unknown>[] =>
  tokenItems(contactPk(orgId, c.id), contactSearchWords(c), (p) => gsi1.contactSearch(orgId, p), `${c.name.toLowerCase()}#${c.id}`, { entity: 'ContactSearchToken', orgId, contactId: c.id, type: c.type });

/**
 * Replaces the token items of the owner whose token partition is `tokensPk` by `items`: puts them all, and deletes
 * the owner's tokens not among them (one `Query` of the owner's token partition, skipped for a new owner).
 */
async function replaceTokens(tokensPk: string, items: Record<string, unknown>[], isNew: boolean): Promise<void> {
  const keep = new Set(items.map((i) => String(i.SK)));
  const stale = isNew
    ? []
    : (
        await db().send(new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': tokensPk }, ProjectionExpression: 'PK, SK' }))
      )?.Items?.filter((i) => !keep.has(String(i.SK))).map((i) => ({ PK: String(i.PK), SK: String(i.SK) })) ?? [];
  await batchWrite(items, stale);
}

/**
 * The token writes for one stored deal or contact item (by its `entity`); nothing for other items.
 * @param isNew the item was just created (version 0), so it has no tokens to remove; false reads them (backfill)
 */
export async function indexItem(item: Record<string, any>, isNew = Number(item.version ?? 0) === 0): Promise<void> {
  if (item.entity === 'Transaction') await replaceTokens(searchTokensPk(String(item.PK)), dealTokenItems(item.orgId, item as SearchableDeal), isNew);
  else if (item.entity === 'Contact') await replaceTokens(searchTokensPk(String(item.PK)), contactTokenItems(item.orgId, item as SearchableContact), isNew);
}

/**
 * After a committed transaction: indexes each deal and contact it put. Its own writes are idempotent, so a retry
 * repeats them harmlessly.
 */
export async function indexCommitted(puts: (Record<string, any> | undefined)[]): Promise<void> {
  await Promise.all(puts.filter((i): i is Record<string, any> => i?.entity === 'Transaction' || i?.entity === 'Contact').map((i) => indexItem(i)));
}

/** Matching token items in index order, and the key to read on from (undefined when the partition is exhausted). */
interface TokenPage {
  tokens: Record<string, any>[];
  lastKey: Record<string, any> | undefined;
}

/**
 * Reads the token items of `partition` (GSI1) whose words match every query word, in index order, until `wanted`
 * are in hand or the partition is exhausted. Each page asks for the number still wanted (`Limit`), so a one-word
 * query reads `wanted` items; only the tokens whose other words fail the check cost more.
 */
async function readTokens(partition: string, queryWords: string[], wanted: number, extra: Partial<QueryCommandInput> = {}): Promise<TokenPage> {
  const tokens: Record<string, any>[] = [];
  let ExclusiveStartKey = extra.ExclusiveStartKey;
  do {
    const out = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ...extra,
        ExpressionAttributeValues: { ':pk': partition, ...extra.ExpressionAttributeValues },
        Limit: Math.max(1, wanted - tokens.length),
        ExclusiveStartKey,
      }),
    );
    tokens.push(...(out.Items ?? []).filter((t) => matchesWords(queryWords, String(t.words ?? '').split(' '))));
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey && tokens.length < wanted);
  return { tokens, lastKey: ExclusiveStartKey };
}

/**
 * Deal items matching the words of `q` (each query word starts an address word), newest deal first: the first
 * `wanted` of them that `accept` keeps (e.g. a status filter). Reads the token partition of the query's longest
 * word in pages of what is still wanted, then the deal items of each page (`BatchGetItem`). A filter's cost grows
 * with how many matches it drops (about `wanted` ÷ its selectivity), not with the organization.
 */
export async function searchDeals(orgId: string, q: string, wanted: number, accept?: (deal: Record<string, any>) => boolean): Promise<Record<string, any>[]> {
  const filtered = accept !== undefined;
  const words = searchWords(q);
  const prefix = lookupPrefix(words);
  if (!prefix) return [];
  const deals: Record<string, any>[] = [];
  let after: Record<string, any> | undefined;
  for (let round = 0; ; round++) {
    // With a filter (`accept`), each round asks for twice as many as the last: fewer round trips when it drops many.
    const ask = filtered ? Math.min(100, (wanted - deals.length) * 2 ** round) : wanted - deals.length;
    const page = await readTokens(gsi1.dealSearch(orgId, prefix), words, ask, { ScanIndexForward: false, ...(after ? { ExclusiveStartKey: after } : {}) });
    const heads = await batchGetInOrder(page.tokens.map((t) => ({ PK: txnPk(orgId, String(t.transactionId)), SK: 'TXN' })));
    deals.push(...(accept ? heads.filter(accept) : heads));
    if (deals.length >= wanted || !page.lastKey) return deals.slice(0, wanted);
    after = page.lastKey;
  }
}

/**
 * Up to `perWord` newest deal ids for each of `lookups` (exact index prefixes), deduplicated: the candidates of an
 * address resolution. Ranked by how many of `queryWords` each candidate's own words match (every token item carries
 * its deal's words; a word matches one it starts), then in the order found: the deal at the address matches its
 * number and its street's words, a deal found by one common word alone matches few. At most `lookups.length`
 * queries of `perWord` items.
 */
export async function dealIdsByWords(orgId: string, lookups: string[], perWord: number, queryWords: string[]): Promise<string[]> {
  const pages = await Promise.all(
    lookups.map((w) =>
      db().send(
        new QueryCommand({ TableName: tableName(), IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :pk', ExpressionAttributeValues: { ':pk': gsi1.dealSearch(orgId, w) }, ScanIndexForward: false, Limit: perWord }),
      ),
    ),
  );
  const matched = new Map<string, number>();
  for (const t of pages.flatMap((p) => p.Items ?? [])) {
    const id = String(t.transactionId);
    if (matched.has(id)) continue;
    const words = String(t.words ?? '').split(' ');
    matched.set(id, queryWords.filter((q) => words.some((w) => w.startsWith(q))).length);
  }
  return [...matched].sort((a, b) => b[1] - a[1]).map(([id]) => id); // stable: ties keep the order found
}

/**
 * Ids of the contacts matching the words of `term` (each query word starts one of the contact's words), by name:
 * the first `wanted`. With `type`, only contacts of that type (the token items carry it).
 */
export async function searchContactIds(orgId: string, term: string, wanted: number, type?: string): Promise<string[]> {
  const words = searchWords(term);
  const prefix = lookupPrefix(words);
  if (!prefix) return [];
  const extra: Partial<QueryCommandInput> = type ? { FilterExpression: '#type = :type', ExpressionAttributeNames: { '#type': 'type' }, ExpressionAttributeValues: { ':type': type } } : {};
  return (await readTokens(gsi1.contactSearch(orgId, prefix), words, wanted, extra)).tokens.map((t) => String(t.contactId));
}
