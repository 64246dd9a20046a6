/**
 * Contact use cases: create (with `contact.created`, one contact per email address in an organization), change
 * (omitted fields kept, null clears; the deals' link snapshots follow), and read with recent activity.
 */
import { randomUUID } from 'node:crypto';
import {
  commitContactUpdate,
  contactPuts,
  contactUpdateItems,
  findContactIdByEmail,
  getContact,
  getVersionedContact,
  isEmailClaim,
  listContactLinks,
  type Contact,
  type NewContactLink,
} from '#db/contacts';
import { listContactCommunications, type Channel, type Communication, type Direction, type MessageKind, type MessageStatus } from '#db/communications';
import { preview } from '#db/conversations';
import { getTransactionHead } from '#db/transactions';
import { transactWrite, type TransactItem } from '#db/transact';
import { outboxPut } from '#db/outbox';
import type { Actor } from '#events/outbox';
import { applyContactPatch, sameContactFields, type ContactPatch } from '#domain/contact-fields';
import { Conflict, NotFound } from '#domain/errors';
import { retryStale, StaleRead } from '#use-cases/optimistic';

/**
 * The writes that create `contact` (and with `link` its link to a deal, see `contactPuts`) with its
 * `contact.created`, for the caller's transaction.
 */
export function contactCreateItems(actor: Actor, contact: Contact, link?: NewContactLink, now = new Date()): TransactItem[] {
  const event = outboxPut(actor, 'contact.created', { contactId: contact.id, name: contact.name, type: contact.type, transactionId: link?.transactionId ?? null, role: link?.role ?? null }, now);
  return [...contactPuts(actor.orgId, contact, link, now), event];
}

/** The email claim failed: another contact holds the address. */
class EmailTaken extends Error {
  constructor(readonly email: string) {
    super(email);
  }
}

/** Commits contact writes, turning a failed email claim into `EmailTaken` and any other failed condition into `StaleRead`. */
const claimFailure = (email: string | null) => (index: number, items: TransactItem[]) => (isEmailClaim(items[index]) && email ? new EmailTaken(email) : new StaleRead());

/** Runs `write`; a taken email becomes the `Conflict` on `email` naming the contact that holds it. */
async function namingHolder<T>(orgId: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (!(err instanceof EmailTaken)) throw err;
    const holder = await findContactIdByEmail(orgId, err.email);
    throw new Conflict(`A contact with email ${err.email} already exists: ${holder ?? 'another contact'}.`, {
      email: `another contact of this organization has it${holder ? ` (contactId ${holder})` : ''}`,
    });
  }
}

/**
 * Creates a contact and emits `contact.created` (one transaction).
 * @param fields absent or null fields are left empty
 * @throws InvalidInput when nothing names the contact or the phone is not a number (see `applyContactPatch`)
 * @throws Conflict naming the existing contact's id when another contact of the organization has the email address
 */
export async function createContact(actor: Actor, fields: ContactPatch, now: Date): Promise<Contact> {
  const contact: Contact = { id: randomUUID(), ...(await applyContactPatch(fields)), createdAt: now.toISOString(), updatedAt: now.toISOString() };
  const items = contactCreateItems(actor, contact, undefined, now);
  await namingHolder(actor.orgId, () => transactWrite(items, (i) => claimFailure(contact.email)(i, items)));
  return contact;
}

/**
 * Changes a contact: fields absent from `patch` are kept, null clears. The snapshot (name, type, email, phone, company)
 * on each of its deal links is refreshed with it. Committed on condition that the contact is unchanged since it was
 * read (else read again); a patch that changes nothing writes nothing.
 * @throws NotFound for a contact that is absent or another organization's
 * @throws InvalidInput as `applyContactPatch` (e.g. clearing the last field that names the contact)
 * @throws Conflict naming the holder when another contact has the new email address, or when the contact kept changing
 */
export async function updateContact(actor: Actor, contactId: string, patch: ContactPatch, now: Date): Promise<Contact> {
  return namingHolder(actor.orgId, () =>
    retryStale(async () => {
      const { contact: before, version } = await getVersionedContact(actor.orgId, contactId);
      const fields = await applyContactPatch(patch, before);
      if (sameContactFields(fields, before)) return before;
      const after: Contact = { ...before, ...fields, updatedAt: now.toISOString() };
      const links = await listContactLinks(actor.orgId, contactId);
      await commitContactUpdate(actor.orgId, contactUpdateItems(actor.orgId, before, after, version), after, version + 1, links, claimFailure(after.email));
      return after;
    }, () => new Conflict('The contact kept changing while it was updated; retry.')),
  );
}

/** A message of the contact, as its recent activity shows it. Times are ISO 8601. */
export interface ContactActivity {
  messageId: string;
  transactionId: string;
  channel: Channel;
  direction: Direction;
  kind: MessageKind;
  status: MessageStatus;
  subject: string | null;
  /** The first 160 characters of the text, whitespace collapsed. */
  preview: string;
  createdAt: string;
}

/** A deal the contact is linked to, with its roles there. */
export interface ContactDeal {
  transactionId: string;
  address: string;
  status: string;
  roles: { role: string; isPrimary: boolean; linkedAt: string }[];
}

/** A contact with what it is doing. */
export interface ContactDetail extends Contact {
  /** Deals linked most recently first, at most `CONTACT_DEALS_SHOWN`. */
  transactions: ContactDeal[];
  /** True when the contact is linked to more deals than `transactions` shows. */
  hasMoreTransactions: boolean;
  /** Its newest messages across deals (either direction), newest first, at most `activityLimit`. */
  recentActivity: ContactActivity[];
}

/** Deals a contact read shows. */
export const CONTACT_DEALS_SHOWN = 25;
/** Links read to find them: a contact rarely has more than a few roles on one deal. */
const LINKS_READ = 100;

const toActivity = (m: Communication): ContactActivity => ({
  messageId: m.id,
  transactionId: m.transactionId,
  channel: m.channel,
  direction: m.direction,
  kind: m.kind,
  status: m.status,
  subject: m.subject,
  preview: preview(m.bodyText ?? ''),
  createdAt: m.createdAt,
});

/**
 * The contact with its deals (and roles there) and its recent messages: the contact, its links (GSI1) and its
 * messages (GSI2) are read in parallel, then the heads of the deals shown.
 * @param activityLimit messages to return (0 for none)
 * @throws NotFound for a contact that is absent or another organization's
 */
export async function getContactDetail(orgId: string, contactId: string, activityLimit: number): Promise<ContactDetail> {
  const [contact, links, messages] = await Promise.all([
    getContact(orgId, contactId),
    listContactLinks(orgId, contactId, LINKS_READ),
    listContactCommunications(orgId, contactId, activityLimit),
  ]);
  const byDeal = new Map<string, ContactDeal['roles']>();
  for (const l of links) byDeal.set(l.transactionId, [...(byDeal.get(l.transactionId) ?? []), { role: l.role, isPrimary: l.isPrimary, linkedAt: l.linkedAt }]);
  const shown = [...byDeal].slice(0, CONTACT_DEALS_SHOWN);
  const deals = await Promise.all(
    shown.map(async ([transactionId, roles]) => {
      try {
        const t = await getTransactionHead(orgId, transactionId);
        return { transactionId, address: t.address, status: t.status, roles };
      } catch (err) {
        if (err instanceof NotFound) return undefined;
        throw err;
      }
    }),
  );
  return {
    ...contact,
    transactions: deals.filter((d): d is ContactDeal => d !== undefined),
    hasMoreTransactions: byDeal.size > shown.length || links.length === LINKS_READ,
    recentActivity: messages.map(toActivity),
  };
}
