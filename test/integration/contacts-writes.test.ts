/**
 * Contact writes on DynamoDB Local: a contact, its email claim and `contact.created` commit together; one contact per
 * email address per organization, also under concurrency; changes keep concurrent patches and refresh every deal
 * link's snapshot (more links than fit one transaction included); concurrent links leave one primary per role.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { useTestTable } from '../support/test-table.ts';
import { outboxEvents } from '../e2e/deal-fixtures.ts';
import { createOrganization } from '#db/orgs';
import { getDeal } from '#db/transactions';
import { createTransaction } from '#use-cases/create-transaction';
import { findContactIdByEmail, getContact, linkCreatePut, listContactLinks, type Contact } from '#db/contacts';
import { transactWrite } from '#db/transact';
import { Conflict } from '#domain/errors';
import { createContact, updateContact } from '#use-cases/contacts';
import { linkContactToDeal } from '#use-cases/contacts-link';
import type { Actor } from '#events/outbox';

let actor: Actor;
let other: Actor;
const now = new Date('2026-11-02T15:00:00Z');
const later = (s: number) => new Date(now.getTime() + s * 1000);

beforeAll(async () => {
  await useTestTable();
  const a = await createOrganization({ name: 'Contacts Realty', ownerEmail: 'c@example.test' });
  const b = await createOrganization({ name: 'Other Realty', ownerEmail: 'o@example.test' });
  actor = { orgId: a.orgId, userId: a.ownerUserId };
  other = { orgId: b.orgId, userId: b.ownerUserId };
});

const newDeal = (street: string) =>
  createTransaction(actor, { propertyAddress: { street, city: 'Austin', state: 'TX', zip: '78704' }, transactionType: 'Purchase', side: 'Buyer', status: 'Under Contract' }, () => [], now);

const rejection = async (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e);

describe('createContact', () => {
  it('writes the contact, claims its email and emits contact.created together', async () => {
    const c = await createContact(actor, { firstName: 'Ana', lastName: 'Ruiz', email: 'Ana.Ruiz@Example.test', phone: '512-555-0147' }, now);

    expect(await getContact(actor.orgId, c.id)).toEqual(c);
    expect(c).toMatchObject({ name: 'Ana Ruiz', type: 'person', email: 'Ana.Ruiz@Example.test', phone: '+15125550147' });
    expect(await findContactIdByEmail(actor.orgId, 'ana.ruiz@example.test')).toBe(c.id);
    const events = (await outboxEvents(actor.orgId, 'contact.created')).filter((e) => e.data.contactId === c.id);
    expect(events.map((e) => e.data)).toEqual([{ contactId: c.id, name: 'Ana Ruiz', type: 'person', transactionId: null, role: null }]);
    expect(events[0]).toMatchObject({ organizationId: actor.orgId, userId: actor.userId, timestamp: now.toISOString() });
  });

  it('refuses a second contact with the same email (any case) with a 409 naming the first, writing nothing', async () => {
    const first = await createContact(actor, { company: 'Lone Prairie Title', email: 'escrow@prairie.example' }, now);
    const before = (await outboxEvents(actor.orgId, 'contact.created')).length;

    const err = await rejection(createContact(actor, { firstName: 'Dup', email: 'ESCROW@prairie.example' }, now));

    expect(err).toBeInstanceOf(Conflict);
    expect((err as Error).message).toBe(`A contact with email ESCROW@prairie.example already exists: ${first.id}.`);
    expect(await outboxEvents(actor.orgId, 'contact.created')).toHaveLength(before);
    // Another organization has its own address space.
    await expect(createContact(other, { firstName: 'Same', email: 'escrow@prairie.example' }, now)).resolves.toMatchObject({ name: 'Same' });
  });

  it('lets exactly one of ten concurrent creates with the same email win', async () => {
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => createContact(actor, { firstName: `Racer ${i}`, email: 'race@example.test' }, now)));

    const won = results.filter((r): r is PromiseFulfilledResult<Contact> => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected' && r.reason instanceof Conflict)).toHaveLength(9);
    expect(await findContactIdByEmail(actor.orgId, 'race@example.test')).toBe(won[0].value.id);
    expect((await outboxEvents(actor.orgId, 'contact.created')).filter((e) => String(e.data.name).startsWith('Racer'))).toHaveLength(1);
  });
});

describe('updateContact', () => {
  it('moves the email claim: the old address is free again, the new one is taken', async () => {
    const c = await createContact(actor, { firstName: 'Mover', email: 'old@example.test' }, now);

    await updateContact(actor, c.id, { email: 'new@example.test' }, later(1));

    expect(await findContactIdByEmail(actor.orgId, 'old@example.test')).toBeUndefined();
    expect(await findContactIdByEmail(actor.orgId, 'new@example.test')).toBe(c.id);
    await expect(createContact(actor, { firstName: 'Taker', email: 'old@example.test' }, now)).resolves.toMatchObject({ email: 'old@example.test' });
    const err = await rejection(updateContact(actor, c.id, { email: 'old@example.test' }, later(2)));
    expect(err).toBeInstanceOf(Conflict);
    expect((await getContact(actor.orgId, c.id)).email).toBe('new@example.test');
  });

  it('keeps every one of concurrent patches of different fields', async () => {
    const c = await createContact(actor, { firstName: 'Busy' }, now);

    await Promise.all([
      updateContact(actor, c.id, { lastName: 'Bee' }, later(1)),
      updateContact(actor, c.id, { phone: '512-555-0123' }, later(1)),
      updateContact(actor, c.id, { company: 'Hive Realty' }, later(1)),
      updateContact(actor, c.id, { email: 'busy@hive.example' }, later(1)),
    ]);

    expect(await getContact(actor.orgId, c.id)).toMatchObject({ name: 'Busy Bee', phone: '+15125550123', company: 'Hive Realty', email: 'busy@hive.example' });
  });

  it('refreshes the snapshot on every deal link, also beyond one transaction (120 links)', async () => {
    const c = await createContact(actor, { firstName: 'Title', lastName: 'Officer', email: 'officer@title.example' }, now);
    const deal = await newDeal('1 Snapshot St');
    await linkContactToDeal(actor, deal.id, { contactId: c.id, role: 'Escrow Officer / Title' }, now);
    // 119 more links written directly (deal heads are not needed for the refresh).
    const ids = Array.from({ length: 119 }, () => randomUUID());
    for (let i = 0; i < ids.length; i += 25) {
      await transactWrite(ids.slice(i, i + 25).map((transactionId) => linkCreatePut(actor.orgId, { transactionId, contactId: c.id, role: 'Escrow Officer / Title', isPrimary: true, linkedAt: now.toISOString() }, c, 0)));
    }

    const updated = await updateContact(actor, c.id, { lastName: 'Officer-Smith', phone: '(512) 555-0100', email: null }, later(5));

    const links = await listContactLinks(actor.orgId, c.id);
    expect(links).toHaveLength(120);
    expect(links.filter((l) => l.name === 'Title Officer-Smith' && l.phone === '+15125550100' && l.email === null)).toHaveLength(120);
    expect((await getDeal(actor.orgId, deal.id)).contacts).toEqual([expect.objectContaining({ contactId: c.id, name: updated.name, phone: '+15125550100', email: null })]);
  });
});

describe('linkContactToDeal under concurrency', () => {
  it('five contacts linked as primary Buyer at once: all linked, exactly one primary', async () => {
    const deal = await newDeal('2 Primary Pl');
    const buyers = await Promise.all(Array.from({ length: 5 }, (_, i) => createContact(actor, { firstName: 'Buyer', lastName: `No${i}` }, now)));

    await Promise.all(buyers.map((b) => linkContactToDeal(actor, deal.id, { contactId: b.id, role: 'Buyer', isPrimary: true }, later(1))));

    const links = (await getDeal(actor.orgId, deal.id)).contacts;
    expect(links.map((l) => l.contactId).sort()).toEqual(buyers.map((b) => b.id).sort());
    expect(links.filter((l) => l.isPrimary)).toHaveLength(1);
  });

  it('the same link requested five times at once is made once', async () => {
    const deal = await newDeal('3 Repeat Rd');
    const c = await createContact(actor, { firstName: 'Seller', lastName: 'Once' }, now);

    const results = await Promise.all(Array.from({ length: 5 }, () => linkContactToDeal(actor, deal.id, { contactId: c.id, role: 'Seller' }, later(1))));

    expect(results.filter((r) => r.changed)).toHaveLength(1);
    const d = await getDeal(actor.orgId, deal.id);
    expect(d.contacts.map((l) => [l.role, l.name, l.isPrimary])).toEqual([['Seller', 'Seller Once', true]]);
    expect(d.recentActivity.filter((a) => a.type === 'contact_linked')).toHaveLength(1);
  });
});
