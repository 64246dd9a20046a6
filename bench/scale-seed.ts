/**
 * Seeds one organization for `npm run bench:scale` straight into the table with parallel `BatchWriteItem`, every
 * item made by the service's own item builders (deal, key date, task and its reference, activity entry, document,
 * contact and its email claim, contact link, message, search tokens), so the shape is what the API writes.
 *
 * Per deal: 3 key dates (today −180 … +180 days), 10 tasks (30 % open), 30 activity entries, 2 documents, 2 contact
 * links, 3 messages. Deals are in four cities and 40 streets; a quarter are `Under Contract`.
 */
import { randomUUID } from 'node:crypto';
import { batchWrite } from '#db/batch';
import { contactEmailPk } from '#db/keys';
import { transactionItem, formatAddress, type Transaction } from '#db/transactions';
import { keyDateItem } from '#db/key-date-items';
import { taskItem, taskRefKey, type Task } from '#db/task-items';
import { activityPut } from '#db/activity';
import { documentItem, type DocumentRecord } from '#db/documents';
import { contactItem, contactLinkItem, type Contact } from '#db/contacts';
import { communicationItem, newCommunication } from '#db/communications';
import { contactTokenItems, dealTokenItems } from '#db/search-index';
import { addDays } from '#domain/calendar';
import { mulberry32 } from '../test/support/webhook-receiver.ts';

/** How much to seed. */
export interface SeedSize {
  deals: number;
  contacts: number;
  tasksPerDeal: number;
  activityPerDeal: number;
  documentsPerDeal: number;
  messagesPerDeal: number;
}

/** A busy brokerage's year (issue 24): 10,000 deals, 100,000 tasks, 300,000 activity entries, 20,000 documents, 5,000 contacts. */
export const BROKERAGE_YEAR: SeedSize = { deals: 10_000, contacts: 5_000, tasksPerDeal: 10, activityPerDeal: 30, documentsPerDeal: 2, messagesPerDeal: 3 };

export const CITIES = ['Austin', 'Round Rock', 'Georgetown', 'Cedar Park'];
export const STATUSES = ['Under Contract', 'Prospect', 'Option Period', 'Closed'];
const STREETS = ['Live Oak', 'Cedar', 'Congress', 'Barton Springs', 'Lamar', 'Guadalupe', 'Burnet', 'Manor', 'Riverside', 'Pleasant Valley', 'Slaughter', 'Brodie', 'Parmer', 'Braker', 'Anderson', 'Koenig', 'Airport', 'Cesar Chavez', 'Rundberg', 'Oltorf', 'Stassney', 'William Cannon', 'Mopac', 'Bee Caves', 'Spicewood', 'Jollyville', 'Wells Branch', 'Dessau', 'Springdale', 'Webberville', 'Montopolis', 'Pecan', 'Magnolia', 'Willow', 'Juniper', 'Mesquite', 'Bluebonnet', 'Sycamore', 'Hackberry', 'Persimmon'];
const SUFFIXES = ['St', 'Ave', 'Ln', 'Dr', 'Rd', 'Ct', 'Blvd'];
const LAST = ['Garcia', 'Nguyen', 'Smith', 'Johnson', 'Lopez', 'Patel', 'Kim', 'Brown', 'Davis', 'Martinez', 'Wilson', 'Anderson', 'Thomas', 'Moore', 'Jackson', 'Lee', 'Harris', 'Clark', 'Lewis', 'Walker'];
const FIRST = ['Maria', 'James', 'Ana', 'Wei', 'Priya', 'John', 'Luis', 'Emily', 'Noah', 'Olivia', 'Diego', 'Grace', 'Omar', 'Sofia', 'Ethan'];

/** What the bench needs to know about a seeded organization. */
export interface SeededOrg {
  deals: Transaction[];
  contacts: Contact[];
  items: number;
  ms: number;
}

/**
 * Seeds `size` into organization `orgId` (which exists), `concurrency` `BatchWriteItem` calls in flight, and
 * reports progress with `log`.
 */
export async function seedOrganization(orgId: string, userId: string, size: SeedSize, today: string, log: (m: string) => void, concurrency = 16): Promise<SeededOrg> {
  const t0 = Date.now();
  // Seeded, so two runs seed the same data.
  const rand = mulberry32(size.deals * 7919 + size.contacts);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  const iso = (day: string, n: number) => `${day}T${String(8 + (n % 10)).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}:00.000Z`;

  const contacts: Contact[] = Array.from({ length: size.contacts }, (_, i) => {
    const firstName = pick(FIRST);
    const lastName = pick(LAST);
    const company = i % 4 === 0 ? `${pick(LAST)} Title` : i % 4 === 1 ? `${pick(LAST)} Lending` : `${pick(LAST)} Realty`;
    const createdAt = iso(addDays(today, -365 + (i % 365)), i);
    return { id: randomUUID(), type: 'person', firstName, lastName, name: `${firstName} ${lastName}`, email: `${firstName}.${lastName}.${i}@example.com`.toLowerCase(), phone: `+1512${String(5_550_000 + i).padStart(7, '0')}`, company, createdAt, updatedAt: createdAt };
  });
  const deals: Transaction[] = [];
  const queue: Record<string, unknown>[] = [];
  let written = 0;
  let inFlight: Promise<void>[] = [];
  const flush = async (force = false) => {
    while (queue.length >= 25 || (force && queue.length)) {
      const batch = queue.splice(0, 25);
      inFlight.push(batchWrite(batch).then(() => void (written += batch.length)));
      if (inFlight.length >= concurrency) {
        await Promise.all(inFlight);
        inFlight = [];
      }
    }
    if (force) await Promise.all(inFlight.splice(0));
  };
  const put = async (...items: Record<string, unknown>[]) => {
    queue.push(...items);
    if (queue.length >= 25 * concurrency) await flush();
  };

  for (const c of contacts) {
    await put(contactItem(orgId, c), { PK: contactEmailPk(orgId, c.email!), SK: 'CONTACTEMAIL', entity: 'ContactEmail', orgId, email: c.email, contactId: c.id }, ...contactTokenItems(orgId, c));
  }
  for (let n = 0; n < size.deals; n++) {
    const created = addDays(today, -365 + Math.floor((n * 365) / size.deals));
    const propertyAddress = { street: `${100 + Math.floor(rand() * 9900)} ${pick(STREETS)} ${pick(SUFFIXES)}`, city: CITIES[n % CITIES.length], state: 'TX', zip: `787${String(n % 50).padStart(2, '0')}` };
    const status = STATUSES[Math.floor(n / CITIES.length) % STATUSES.length];
    const t: Transaction = { id: randomUUID(), propertyAddress, address: formatAddress(propertyAddress), transactionType: 'Purchase', side: 'Buyer', status, notes: null, createdAt: iso(created, n), updatedAt: iso(created, n), closedAt: null, version: 0 };
    deals.push(t);
    await put(transactionItem(orgId, t), ...dealTokenItems(orgId, t));
    for (const type of ['ClosingDate', 'InspectionDeadline', 'EarnestMoneyDue']) {
      const dateValue = addDays(today, -180 + Math.floor(rand() * 360));
      await put(keyDateItem(orgId, { transactionId: t.id, keyDateType: type, dateValue, isCustom: false, label: null, source: null, calculationNotes: null, completedAt: null, address: t.address, createdAt: t.createdAt, updatedAt: t.createdAt }));
    }
    for (let i = 0; i < size.tasksPerDeal; i++) {
      const open = rand() < 0.3;
      const task: Task = {
        id: randomUUID(), transactionId: t.id, title: `Task ${i + 1} of ${t.address}`, description: null, dueDate: addDays(today, -60 + Math.floor(rand() * 120)), priority: (i % 3) + 1,
        assigneeUserId: i % 2 ? userId : null, linkedMilestoneName: null, dueOffsetDays: null, status: open ? 'open' : 'completed',
        completedAt: open ? null : t.createdAt, completedBy: open ? null : userId, completionNote: null, address: t.address, createdAt: t.createdAt, createdBy: userId,
      };
      await put(taskItem(orgId, task), { ...taskRefKey(orgId, task.id), entity: 'TaskRef', orgId, transactionId: t.id });
    }
    for (let i = 0; i < size.activityPerDeal; i++) {
      await put(activityPut(orgId, { transactionId: t.id, type: 'note', summary: `Update ${i + 1}`, details: null, userId }, new Date(Date.parse(t.createdAt) + i * 3_600_000)).put.Put.Item);
    }
    for (let i = 0; i < size.documentsPerDeal; i++) {
      const d: DocumentRecord = {
        id: randomUUID(), orgId, transactionId: t.id, name: `doc-${i + 1}.pdf`, documentType: 'other', documentTypeSource: 'declared', contentType: 'application/pdf', sizeBytes: 120_000, s3Key: `documents/${orgId}/${randomUUID()}.pdf`,
        uploadState: 'uploaded', uploadError: null, extractionState: 'none', extractOnUpload: false, latestJobId: null, order: i, createdAt: t.createdAt, updatedAt: t.createdAt, uploadedAt: t.createdAt, createdBy: userId,
      };
      await put(documentItem(d));
    }
    for (const [i, role] of ['Buyer', 'Seller'].entries()) {
      const c = contacts[(n * 2 + i) % contacts.length];
      await put(contactLinkItem(orgId, { transactionId: t.id, contactId: c.id, role, isPrimary: true, type: c.type, name: c.name, email: c.email, phone: c.phone, company: c.company, linkedAt: t.createdAt }));
    }
    for (let i = 0; i < size.messagesPerDeal; i++) {
      const m = newCommunication({ transactionId: t.id, channel: 'email', direction: i % 2 ? 'inbound' : 'outbound', kind: 'email', status: i % 2 ? 'received' : 'sent', from: { address: 'agent@example.com', name: 'Agent', contactId: null }, bodyText: `Message ${i + 1} about ${t.address}`, subject: `Re: ${t.address}` }, new Date(Date.parse(t.createdAt) + i * 7_200_000));
      await put(communicationItem(orgId, m));
    }
    if (n % 1000 === 999) log(`  ${n + 1} deals, ${written} items written (${Math.round(written / ((Date.now() - t0) / 1000))} items/s)`);
  }
  await flush(true);
  return { deals, contacts, items: written, ms: Date.now() - t0 };
}
