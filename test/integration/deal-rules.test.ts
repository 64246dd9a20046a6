/** Deal rules on DynamoDB Local: reopening clears closedAt, notes are logged, linked tasks dated before their key date keep their date. */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestTable } from '../support/test-table.ts';
import { createOrganization } from '#db/orgs';
import { getDeal, getTransactionHead, updateNotes } from '#db/transactions';
import { createTransaction } from '#use-cases/create-transaction';
import { changeTransactionStatus } from '#use-cases/change-transaction-status';
import { upsertKeyDates, updateKeyDate } from '#use-cases/key-dates';
import { createTask } from '#use-cases/tasks';
import type { Actor } from '#events/outbox';

let actor: Actor;
const now = new Date('2026-11-02T15:00:00Z');
const address = { street: '12 Pecan St', city: 'Waco', state: 'TX', zip: '76701' };

beforeAll(async () => {
  await useTestTable();
  const org = await createOrganization({ name: 'Rules Realty', ownerEmail: 'rules@example.test' });
  actor = { orgId: org.orgId, userId: org.ownerUserId };
});

describe('deal rules', () => {
  it('reopening a closed deal clears closedAt', async () => {
    const t = await createTransaction(actor, { propertyAddress: address, transactionType: 'Purchase', side: 'Buyer', status: 'Prospect' });
    const closed = await changeTransactionStatus(actor, t.id, 'Closed', now);
    expect(closed.transaction.closedAt).toBe(now.toISOString());
    const reopened = await changeTransactionStatus(actor, t.id, 'Under Contract', new Date(now.getTime() + 60_000));
    expect(reopened.transaction.closedAt).toBeNull();
    expect((await getTransactionHead(actor.orgId, t.id)).closedAt).toBeNull();
  });

  it('records a notes change in the activity log', async () => {
    const t = await createTransaction(actor, { propertyAddress: address, transactionType: 'Purchase', side: 'Buyer', status: 'Prospect' });
    await updateNotes(actor, t, 'Seller asked for a 2-day leaseback', now);
    const deal = await getDeal(actor.orgId, t.id);
    expect(deal.notes).toBe('Seller asked for a 2-day leaseback');
    expect(deal.recentActivity.map((a) => a.type)).toContain('notes_updated');
  });

  it('a linked task dated before its key date exists keeps its date, then follows the key date', async () => {
    const t = await createTransaction(actor, { propertyAddress: address, transactionType: 'Purchase', side: 'Buyer', status: 'Prospect' });
    const task = await createTask(actor, t.id, { title: 'Book movers', dueDate: '2026-12-10', linkedMilestoneName: 'ClosingDate' }, now);
    expect(task.dueOffsetDays).toBeNull();
    await upsertKeyDates(actor, t.id, [{ keyDateType: 'ClosingDate', dateValue: '2026-12-15' }], now);
    let stored = (await getDeal(actor.orgId, t.id)).tasks.find((x) => x.id === task.id)!;
    expect(stored.dueDate).toBe('2026-12-10');
    expect(stored.dueOffsetDays).toBe(-5);
    await updateKeyDate(actor, t.id, 'ClosingDate', { dateValue: '2026-12-22' }, now);
    stored = (await getDeal(actor.orgId, t.id)).tasks.find((x) => x.id === task.id)!;
    expect(stored.dueDate).toBe('2026-12-17');
  });
});
