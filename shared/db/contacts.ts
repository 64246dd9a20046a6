/**
 * Contacts and their links to deals. A contact: `PK = ORG#<orgId>#CONTACT#<contactId>`, `SK = CONTACT`,
 * listed by GSI1 `ORG#<orgId>#CONTACTS` / `<lower-cased display name>#<contactId>`. A link of a contact to
 * a deal lives in the deal's item collection, `PK = ORG#<orgId>#TXN#<txnId>`, `SK = CONTACT#<contactId>`,
 * with the role and a snapshot of the contact's name and channels, so reading a deal (one `Query`) shows
 * its parties.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';
import { txnPk } from '#db/keys';
import type { TransactItem } from '#db/transact';
import { outboxPut, type Actor } from '#events/outbox';
import { NotFound } from '#domain/errors';

/** The built-in roles (spec "Contact": roles match exactly on the role name). */
export const CONTACT_ROLES = ['Buyer', 'Seller', "Buyer's Agent", 'Listing Agent', 'Escrow Officer / Title'] as const;

/** A built-in role name. */
export type ContactRole = (typeof CONTACT_ROLES)[number];

/** A contact is a person or a company (e.g. the title company). */
export type ContactType = 'person' | 'company';

/** A contact of the organization. */
export interface Contact {
  id: string;
  type: ContactType;
  /** People: first and last name; companies: null. */
  firstName: string | null;
  lastName: string | null;
  /** Display name: a person's full name or a company's name. */
  name: string;
  email: string | null;
  phone: string | null;
  /** A person's company (e.g. the agent's brokerage); a company's own name. */
  company: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A contact linked to a deal with a role, as the deal shows it. */
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

/** Partition key of a contact. */
export const contactPk = (orgId: string, contactId: string) => `ORG#${orgId}#CONTACT#${contactId}`;
/** GSI1 partition of the organization's contacts. */
export const contactsGsi1 = (orgId: string) => `ORG#${orgId}#CONTACTS`;

/** The contact item. */
export const contactItem = (orgId: string, c: Contact) => ({
  PK: contactPk(orgId, c.id),
  SK: 'CONTACT',
  entity: 'Contact',
  orgId,
  ...c,
  GSI1PK: contactsGsi1(orgId),
  GSI1SK: `${c.name.toLowerCase()}#${c.id}`,
});

/** The link item in the deal's collection. */
export const contactLinkItem = (orgId: string, link: TransactionContact) => ({
  PK: txnPk(orgId, link.transactionId),
  SK: `CONTACT#${link.contactId}`,
  entity: 'TransactionContact',
  orgId,
  ...link,
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

/**
 * The writes that create a contact and emit `contact.created`, plus (with `link`) its link to a deal with
 * a role. For the caller's transaction (the deal's existence is the caller's condition).
 */
export function contactCreateItems(actor: Actor, contact: Contact, link?: { transactionId: string; role: string; isPrimary?: boolean }, now = new Date()): TransactItem[] {
  const items: TransactItem[] = [
    { Put: { TableName: tableName(), Item: contactItem(actor.orgId, contact), ConditionExpression: 'attribute_not_exists(PK)' } },
  ];
  if (link) {
    const l: TransactionContact = {
      transactionId: link.transactionId,
      contactId: contact.id,
      role: link.role,
      isPrimary: link.isPrimary ?? false,
      type: contact.type,
      name: contact.name,
      email: contact.email,
      phone: contact.phone,
      company: contact.company,
      linkedAt: now.toISOString(),
    };
    items.push({ Put: { TableName: tableName(), Item: contactLinkItem(actor.orgId, l), ConditionExpression: 'attribute_not_exists(SK)' } });
  }
  items.push(
    outboxPut(actor, 'contact.created', {
      contactId: contact.id,
      name: contact.name,
      type: contact.type,
      transactionId: link?.transactionId ?? null,
      role: link?.role ?? null,
    }, now),
  );
  return items;
}

/**
 * The contact.
 * @throws NotFound when absent or another organization's
 */
export async function getContact(orgId: string, contactId: string): Promise<Contact> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: contactPk(orgId, contactId), SK: 'CONTACT' } }));
  if (!out.Item) throw new NotFound('Contact');
  return toContact(out.Item);
}
