/**
 * Contacts, their email claims and their links to deals.
 * - Contact: `PK = ORG#<orgId>#CONTACT#<contactId>`, `SK = CONTACT`, with a `version` (optimistic concurrency) and a
 *   lower-cased `searchText`; listed by name through GSI1 `ORG#<orgId>#CONTACTS` / `<lower-cased name>#<contactId>`.
 * - Email claim: `PK = ORG#<orgId>#CONTACTEMAIL#<lower-cased email>`, `SK = CONTACTEMAIL` → the contact holding that
 *   address, written with the contact, so an organization has at most one contact per email address.
 * - Link of a contact to a deal with a role, in the deal's item collection: `PK = ORG#<orgId>#TXN#<txnId>`,
 *   `SK = CONTACT#<contactId>#<role>` (one link per contact and role; a dual agent has two), with the role, whether it
 *   is the role's primary, and a snapshot of the contact's name and channels (`contactVersion` says which version), so
 *   reading a deal (one `Query`) shows its parties. Listed per contact through GSI1
 *   `ORG#<orgId>#CONTACT#<contactId>#DEALS` / `<linkedAt>#<txnId>#<role>`.
 */
import { GetCommand, QueryCommand, UpdateCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { db, tableName } from '#db/client';
import { queryUpTo } from '#db/query-up-to';
import { batchGetInOrder } from '#db/batch';
import { searchContactIds } from '#db/search-index';
import { phoneQueryDigits } from '#domain/search-tokens';
import { contactEmailPk, contactPk, gsi1, txnPk } from '#db/keys';
import { MAX_TRANSACT_ITEMS, transactWrite, type TransactItem } from '#db/transact';
import { NotFound } from '#domain/errors';
import { CONTACT_ROLES } from '#domain/contact-roles';
import { contactSearchText, contactSearchTerm, type ContactFields, type ContactType } from '#domain/contact-fields';

export { CONTACT_ROLES, type BuiltInRole as ContactRole } from '#domain/contact-roles';
export type { ContactType } from '#domain/contact-fields';

/** A contact of the organization. Times are ISO 8601. */
export interface Contact extends ContactFields {
  id: string;
  createdAt: string;
  updatedAt: string;
}

/** A contact linked to a deal with a role, as the deal shows it (name and channels are a snapshot of the contact). */
export interface TransactionContact {
  transactionId: string;
  contactId: string;
  role: string;
  isPrimary: boolean;
  type: ContactType;
  name: string;
  email: string | null;
  phone: string | null;
  company: string | null;
  linkedAt: string;
}

/** GSI1 partition of the organization's contacts. */
export const contactsGsi1 = gsi1.contacts;
const contactKey = (orgId: string, contactId: string) => ({ PK: contactPk(orgId, contactId), SK: 'CONTACT' });
const emailClaimKey = (orgId: string, email: string) => ({ PK: contactEmailPk(orgId, email), SK: 'CONTACTEMAIL' });
const linkKey = (orgId: string, l: Pick<TransactionContact, 'transactionId' | 'contactId' | 'role'>) => ({ PK: txnPk(orgId, l.transactionId), SK: `CONTACT#${l.contactId}#${l.role}` });
const contactLinksGsi1 = gsi1.contactDeals;
const LINK_PREFIX = 'CONTACT#';

/** The contact item at `version` (0 when created). */
export const contactItem = (orgId: string, c: Contact, version = 0) => ({
  ...contactKey(orgId, c.id),
  entity: 'Contact',
  orgId,
  ...c,
  version,
  searchText: contactSearchText(c),
  GSI1PK: contactsGsi1(orgId),
  GSI1SK: `${c.name.toLowerCase()}#${c.id}`,
});

/** The link item in the deal's collection, with the snapshot of contact version `contactVersion`. */
export const contactLinkItem = (orgId: string, link: TransactionContact, contactVersion = 0) => ({
  ...linkKey(orgId, link),
  entity: 'TransactionContact',
  orgId,
  ...link,
  contactVersion,
  GSI1PK: contactLinksGsi1(orgId, link.contactId),
  GSI1SK: `${link.linkedAt}#${link.transactionId}#${link.role}`,
});

/** A contact from its item. */
export function toContact(item: Record<string, any>): Contact {
  const { id, type, firstName, lastName, name, email, phone, company, createdAt, updatedAt } = item;
  return { id, type, firstName: firstName ?? null, lastName: lastName ?? null, name, email: email ?? null, phone: phone ?? null, company: company ?? null, createdAt, updatedAt };
}

/** A deal's contact link from its item. */
export function toTransactionContact(item: Record<string, any>): TransactionContact {
  const { transactionId, contactId, role, isPrimary, type, name, email, phone, company, linkedAt } = item;
  return { transactionId, contactId, role, isPrimary: Boolean(isPrimary), type, name, email: email ?? null, phone: phone ?? null, company: company ?? null, linkedAt };
}

const roleRank = (role: string) => {
  const i = (CONTACT_ROLES as readonly string[]).indexOf(role);
  return i < 0 ? CONTACT_ROLES.length : i;
};

/** Display order of a deal's contacts: built-in roles in `CONTACT_ROLES` order (custom roles after), primary first, then by link time and name. */
export const compareTransactionContacts = (a: TransactionContact, b: TransactionContact): number =>
  roleRank(a.role) - roleRank(b.role) ||
  a.role.localeCompare(b.role) ||
  Number(b.isPrimary) - Number(a.isPrimary) ||
  a.linkedAt.localeCompare(b.linkedAt) ||
  a.name.localeCompare(b.name);

/**
 * Splits a person's display name into first and last name (last word is the last name; a trailing
 * suffix such as "Jr." stays with it). A company keeps no first/last name.
 */
export function splitName(name: string): { firstName: string | null; lastName: string | null } {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length <= 1) return { firstName: words[0] ?? null, lastName: null };
  const suffix = /^(jr|sr|ii|iii|iv)\.?$/i.test(words[words.length - 1]) && words.length > 2 ? 2 : 1;
  return { firstName: words.slice(0, -suffix).join(' '), lastName: words.slice(-suffix).join(' ') };
}

/** The conditional `Put` claiming `email` for the contact (fails when another contact holds it). */
const emailClaimPut = (orgId: string, email: string, contactId: string): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: { ...emailClaimKey(orgId, email), entity: 'ContactEmail', orgId, email: email.toLowerCase(), contactId },
    ConditionExpression: 'attribute_not_exists(PK) OR contactId = :c',
    ExpressionAttributeValues: { ':c': contactId },
  },
});

/** True when `item` is the email claim of a contact write (its failed condition means the address is taken). */
export const isEmailClaim = (item: TransactItem | undefined): boolean => item?.Put?.Item?.entity === 'ContactEmail';

/** The id of the organization's contact holding `email` (case-insensitive), or undefined. */
export async function findContactIdByEmail(orgId: string, email: string): Promise<string | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: emailClaimKey(orgId, email), ConsistentRead: true }));
  return out.Item?.contactId;
}

/** A new contact's link to a deal with a role. */
export interface NewContactLink {
  transactionId: string;
  role: string;
  isPrimary?: boolean;
}

/**
 * The writes that create a contact (with its email claim) and, with `link`, its link to a deal with a role. For the
 * caller's transaction (the deal's existence is the caller's condition; a failed email claim, see `isEmailClaim`,
 * means another contact has the address).
 */
export function contactPuts(orgId: string, contact: Contact, link: NewContactLink | undefined, now: Date): TransactItem[] {
  const items: TransactItem[] = [
    { Put: { TableName: tableName(), Item: contactItem(orgId, contact), ConditionExpression: 'attribute_not_exists(PK)' } },
  ];
  if (contact.email) items.push(emailClaimPut(orgId, contact.email, contact.id));
  if (link) {
    const l: TransactionContact = { ...snapshotOf(contact), transactionId: link.transactionId, contactId: contact.id, role: link.role, isPrimary: link.isPrimary ?? false, linkedAt: now.toISOString() };
    items.push({ Put: { TableName: tableName(), Item: contactLinkItem(orgId, l), ConditionExpression: 'attribute_not_exists(SK)' } });
  }
  return items;
}

/**
 * The contact.
 * @throws NotFound when absent or another organization's
 */
export async function getContact(orgId: string, contactId: string): Promise<Contact> {
  return (await getVersionedContact(orgId, contactId)).contact;
}

/**
 * The contact and its version (a strongly consistent read, for a write planned from it).
 * @throws NotFound when absent or another organization's
 */
export async function getVersionedContact(orgId: string, contactId: string): Promise<{ contact: Contact; version: number }> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: contactKey(orgId, contactId), ConsistentRead: true }));
  if (!out.Item) throw new NotFound('Contact');
  return { contact: toContact(out.Item), version: Number(out.Item.version ?? 0) };
}

/** Condition on the contact's version as read: `version = <expected>` (contacts written before versions count as 0). */
function versionCondition(expected: number) {
  return expected === 0
    ? { ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(version) OR version = :v)', ExpressionAttributeValues: { ':v': 0 } }
    : { ConditionExpression: 'attribute_exists(PK) AND version = :v', ExpressionAttributeValues: { ':v': expected } };
}

/** A `ConditionCheck` that the contact is still at `version` (a link's snapshot is then current). */
export const contactVersionCheck = (orgId: string, contactId: string, version: number): TransactItem => ({
  ConditionCheck: { TableName: tableName(), Key: contactKey(orgId, contactId), ...versionCondition(version) },
});

/**
 * The writes that replace the contact `before` (read at `version`) by `after` at `version + 1`, moving its email
 * claim when the address changes. The first item fails when the contact changed since it was read; a failed
 * email claim (`isEmailClaim`) means another contact has the new address.
 */
export function contactUpdateItems(orgId: string, before: Contact, after: Contact, version: number): TransactItem[] {
  const items: TransactItem[] = [{ Put: { TableName: tableName(), Item: contactItem(orgId, after, version + 1), ...versionCondition(version) } }];
  const was = before.email?.toLowerCase() ?? null;
  const next = after.email?.toLowerCase() ?? null;
  if (next && next !== was) items.push(emailClaimPut(orgId, next, after.id));
  if (was && next !== was) {
    items.push({ Delete: { TableName: tableName(), Key: emailClaimKey(orgId, was), ConditionExpression: 'attribute_not_exists(PK) OR contactId = :c', ExpressionAttributeValues: { ':c': after.id } } });
  }
  return items;
}

/** A contact's fields as a link snapshots them. */
const snapshotOf = (c: Contact) => ({ type: c.type, name: c.name, email: c.email, phone: c.phone, company: c.company });

/** The `Update` that refreshes a link's snapshot to `contact` at `version`, unless it already holds a newer one. */
function linkSnapshotUpdate(orgId: string, link: TransactionContact, contact: Contact, version: number) {
  const s = snapshotOf(contact);
  return {
    TableName: tableName(),
    Key: linkKey(orgId, link),
    UpdateExpression: 'SET #type = :type, #name = :name, email = :email, phone = :phone, company = :company, contactVersion = :cv',
    ConditionExpression: 'attribute_exists(SK) AND (attribute_not_exists(contactVersion) OR contactVersion < :cv)',
    ExpressionAttributeNames: { '#type': 'type', '#name': 'name' },
    ExpressionAttributeValues: { ':type': s.type, ':name': s.name, ':email': s.email, ':phone': s.phone, ':company': s.company, ':cv': version },
  };
}

/**
 * Commits `contactWrites` (from `contactUpdateItems`) together with the refresh of as many of the contact's deal
 * links as fit in the same transaction, then refreshes the remaining links one by one. A link already holding a newer
 * snapshot (a later update got there first) is left alone.
 * @param version the contact's new version
 * @param onConditionFailed maps a failed condition of the transaction (by item index) to the error to throw
 */
export async function commitContactUpdate(
  orgId: string,
  contactWrites: TransactItem[],
  contact: Contact,
  version: number,
  links: TransactionContact[],
  onConditionFailed: (index: number, items: TransactItem[]) => Error,
): Promise<void> {
  const room = MAX_TRANSACT_ITEMS - contactWrites.length;
  const items = [...contactWrites, ...links.slice(0, room).map((l) => ({ Update: linkSnapshotUpdate(orgId, l, contact, version) }))];
  await transactWrite(items, (index) => onConditionFailed(index, items));
  for (const link of links.slice(room)) {
    try {
      await db().send(new UpdateCommand(linkSnapshotUpdate(orgId, link, contact, version)));
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
    }
  }
}

/**
 * A page of the organization's contacts sorted by name (GSI1), optionally filtered by `q` (each of its words starts
 * a word of the names, email or company, or it is a phone number's start, national or local; see
 * `contactSearchTerm`) and `type`. A `q` is answered from the search-token index (shared/db/search-index.ts).
 * Reads only as far as the requested page plus one item.
 * @param opts page is 1-based
 */
export async function listContacts(orgId: string, opts: { q?: string; type?: ContactType; page: number; pageSize: number }) {
  const wanted = opts.page * opts.pageSize + 1;
  const start = (opts.page - 1) * opts.pageSize;
  const term = contactSearchTerm(opts.q);
  if (term) {
    const ids = await searchContactIds(orgId, /^\d+$/.test(term) ? phoneQueryDigits(term) : term, wanted, opts.type);
    // Only the page's contacts are read; the ids around it only count.
    const contacts = await batchGetInOrder(ids.slice(start, start + opts.pageSize).map((id) => contactKey(orgId, id)));
    return { data: contacts.map(toContact), page: opts.page, pageSize: opts.pageSize, hasMore: ids.length > start + opts.pageSize };
  }
  const found = await queryUpTo(
    {
      TableName: tableName(),
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': contactsGsi1(orgId), ...(opts.type ? { ':type': opts.type } : {}) },
      ...(opts.type ? { FilterExpression: '#type = :type', ExpressionAttributeNames: { '#type': 'type' } } : { Limit: wanted }),
    },
    wanted,
  );
  return { data: found.slice(start, start + opts.pageSize).map(toContact), page: opts.page, pageSize: opts.pageSize, hasMore: found.length > start + opts.pageSize };
}

/**
 * The contact's links to deals, most recently linked first (GSI1).
 * @param limit at most this many links; all when omitted
 */
export async function listContactLinks(orgId: string, contactId: string, limit?: number): Promise<TransactionContact[]> {
  const input: QueryCommandInput = {
    TableName: tableName(),
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': contactLinksGsi1(orgId, contactId) },
    ScanIndexForward: false,
    ...(limit === undefined ? {} : { Limit: limit }),
  };
  const items = await queryUpTo(input, limit ?? Number.POSITIVE_INFINITY);
  return items.slice(0, limit).map(toTransactionContact);
}

/** A deal's contact links in display order (`compareTransactionContacts`), read strongly consistent. */
export async function listDealContacts(orgId: string, transactionId: string): Promise<TransactionContact[]> {
  const items = await queryUpTo(
    { TableName: tableName(), KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)', ExpressionAttributeValues: { ':pk': txnPk(orgId, transactionId), ':sk': LINK_PREFIX }, ConsistentRead: true },
    Number.POSITIVE_INFINITY,
  );
  return items.map(toTransactionContact).sort(compareTransactionContacts);
}

/** The `Put` of a new link carrying the snapshot of `contact` at `version` (fails when the link exists). */
export function linkCreatePut(orgId: string, link: Omit<TransactionContact, keyof ReturnType<typeof snapshotOf>>, contact: Contact, version: number): TransactItem {
  const item = contactLinkItem(orgId, { ...link, ...snapshotOf(contact) }, version);
  return { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(SK)' } };
}

/** The `Update` that sets whether an existing link is its role's primary (fails when the link is gone). */
export const linkPrimaryUpdate = (orgId: string, link: TransactionContact, isPrimary: boolean): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: linkKey(orgId, link),
    UpdateExpression: 'SET isPrimary = :p',
    ConditionExpression: 'attribute_exists(SK)',
    ExpressionAttributeValues: { ':p': isPrimary },
  },
});
