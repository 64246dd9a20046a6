/**
 * Demo data for a fresh local runtime: one organization with its owner and a coordinator, the default
 * status vocabulary, three realistic Texas deals with key dates and tasks. Fictional people and places.
 */
import { createOrganization, addUser } from '#db/orgs';
import { createTransaction } from '#use-cases/create-transaction';
import { upsertKeyDates } from '#use-cases/key-dates';
import { listOpenTasks } from '#db/tasks';
import { completeTask, createTask } from '#use-cases/tasks';
import { changeTransactionStatus } from '#use-cases/change-transaction-status';
import { addDays, dateOf } from '#domain/calendar';

export interface SeededOrg {
  orgId: string;
  keys: { read: string; draft: string; actions: string };
}

/** Seeds the demo organization through the same repositories the API uses. Dates are relative to `now`. */
export async function seedDemo(now = new Date()): Promise<SeededOrg> {
  const org = await createOrganization({ name: 'Bluebonnet Realty Group (demo)', ownerEmail: 'owner@bluebonnet.example', ownerFirstName: 'Dana', ownerLastName: 'Whitfield' });
  const tc = await addUser(org.orgId, { email: 'tc@bluebonnet.example', firstName: 'Marisol', lastName: 'Reyes', role: 'coordinator' });
  const actor = { orgId: org.orgId, userId: org.ownerUserId };
  const today = dateOf(now);
  const d = (n: number) => addDays(today, n);

  const deals = [
    { address: { street: '1207 Live Oak Ln', city: 'Austin', state: 'TX', zip: '78704' }, side: 'Buyer' as const, type: 'Purchase' as const, status: 'Under Contract', effective: d(-3), option: 7, closing: d(27) },
    { address: { street: '4410 Cedar Bend Dr', city: 'Round Rock', state: 'TX', zip: '78681' }, side: 'Seller' as const, type: 'Sale' as const, status: 'Clear to Close', effective: d(-26), option: 5, closing: d(4) },
    { address: { street: '88 Mockingbird Ct', city: 'San Marcos', state: 'TX', zip: '78666' }, side: 'Buyer' as const, type: 'Purchase' as const, status: 'Prospect', effective: d(1), option: 10, closing: d(45) },
  ];
  for (const deal of deals) {
    const t = await createTransaction(actor, { propertyAddress: deal.address, transactionType: deal.type, side: deal.side, status: 'Prospect' }, undefined, now);
    const optionEnds = addDays(deal.effective, deal.option);
    await upsertKeyDates(actor, t.id, [
      { keyDateType: 'EffectiveDate', dateValue: deal.effective, source: 'demo seed' },
      { keyDateType: 'InspectionDeadline', dateValue: optionEnds, calculationNotes: `Effective Date ${deal.effective} + ${deal.option} days option period (TREC 20-18 ¶5B)`, source: 'demo seed' },
      { keyDateType: 'EarnestMoneyDue', dateValue: addDays(deal.effective, 3), calculationNotes: `Effective Date ${deal.effective} + 3 days (TREC 20-18 ¶5A)`, source: 'demo seed' },
      { keyDateType: 'ClosingDate', dateValue: deal.closing, source: 'demo seed' },
    ], now);
    await createTask(actor, t.id, { title: 'Send executed contract to lender and title', priority: 1, dueDate: d(1), assigneeUserId: tc.userId }, now);
    await createTask(actor, t.id, { title: 'Confirm survey delivered or waived', priority: 2, linkedMilestoneName: 'InspectionDeadline' }, now);
    if (deal.status !== 'Prospect') {
      if (deal.status === 'Clear to Close') await changeTransactionStatus(actor, t.id, 'Under Contract', now);
      await changeTransactionStatus(actor, t.id, deal.status, now);
    }
    // A coordinator would have finished what fell due before today.
    for (const task of await listOpenTasks(actor, { transactionId: t.id, limit: 50 })) {
      if (task.dueDate && task.dueDate < today) await completeTask(actor, task.id, 'Done (demo seed)', now);
    }
  }
  return { orgId: org.orgId, keys: org.keys };
}
