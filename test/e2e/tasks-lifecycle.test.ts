/** Tasks over HTTP: create (linked to a key date), GET /tasks ordering and filters, assign, complete + events. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { addUser, type OrgUser } from '#db/orgs';
import { startTestApi, type TestApi, type TestOrg } from '../support/http-client.ts';
import { createDeal, eventsFor, outboxEvents, postTask, putKeyDates } from './deal-fixtures.ts';

let t: TestApi;
let org: TestOrg;
let agent: OrgUser;
let outsider: TestOrg;
beforeAll(async () => {
  t = await startTestApi();
  org = await t.newOrg('Task Realty');
  outsider = await t.newOrg('Outsider Realty');
  agent = await addUser(org.orgId, { email: 'agent@task.test', firstName: 'Ana', lastName: 'Agent', role: 'agent' });
});
afterAll(() => t.close());

const listTasks = async (query = '', key = org.keys.read) => {
  const r = await t.call('GET', `/api/v1/tasks${query}`, { key });
  expect(r.status).toBe(200);
  return r.body.data as any[];
};
const complete = (taskId: string, body?: unknown) => t.call('POST', `/api/v1/tasks/${taskId}/complete`, { key: org.keys.draft, body });

describe('POST /transactions/{transactionId}/tasks', () => {
  it('a task linked to a key date without dueDate is due on that date', async () => {
    const deal = await createDeal(org, '1 Link St');
    await putKeyDates(t, org.keys.draft, deal.id, [{ keyDateType: 'InspectionDeadline', dateValue: '2026-12-10' }]);
    const r = await t.call('POST', `/api/v1/transactions/${deal.id}/tasks`, {
      key: org.keys.draft,
      body: { title: 'Send inspection report', description: 'PDF to buyer', priority: 2, linkedMilestoneName: 'InspectionDeadline' },
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      transactionId: deal.id,
      title: 'Send inspection report',
      description: 'PDF to buyer',
      dueDate: '2026-12-10',
      priority: 2,
      assigneeUserId: null,
      linkedMilestoneName: 'InspectionDeadline',
      dueOffsetDays: 0,
      status: 'open',
      completedAt: null,
      completedBy: null,
      completionNote: null,
      address: '1 Link St, Austin, TX 78704',
      createdAt: expect.any(String),
      createdBy: org.ownerUserId,
    });
    const [created] = await eventsFor(org.orgId, 'task.created', deal.id);
    expect(created.data).toEqual({ taskId: r.body.data.id, transactionId: deal.id, title: 'Send inspection report', dueDate: '2026-12-10', assigneeUserId: null });
  });

  it('keeps the date part of a dueDate date-time and validates the body', async () => {
    const deal = await createDeal(org, '2 Valid St');
    const task = await postTask(t, org.keys.draft, deal.id, { title: 'Call lender', dueDate: '2026-12-03T22:00:00-06:00' });
    expect(task.dueDate).toBe('2026-12-03');
    const noTitle = await t.call('POST', `/api/v1/transactions/${deal.id}/tasks`, { key: org.keys.draft, body: { title: ' ', priority: 9 } });
    expect(noTitle.status).toBe(422);
    expect(Object.keys(noTitle.body.error.fields).sort()).toEqual(['priority', 'title']);
    const stranger = await t.call('POST', `/api/v1/transactions/${deal.id}/tasks`, { key: org.keys.draft, body: { title: 'x', assigneeUserId: outsider.ownerUserId } });
    expect(stranger.status).toBe(422);
    expect(stranger.body.error.fields).toEqual({ assigneeUserId: 'is not a member of this organization' });
    const noDeal = await t.call('POST', `/api/v1/transactions/${randomUUID()}/tasks`, { key: org.keys.draft, body: { title: 'x' } });
    expect(noDeal.status).toBe(404);
    // Issue 25: a typo of dueDate is refused, naming it, instead of a task with no due date.
    const typo = await t.call('POST', `/api/v1/transactions/${deal.id}/tasks`, { key: org.keys.draft, body: { title: 'x', due: '2026-12-01' } });
    expect(typo.status).toBe(422);
    expect(typo.body.error.fields).toEqual({ due: 'is not a field of this body' });
    expect((await t.call('GET', `/api/v1/transactions/${deal.id}`, { key: org.keys.read })).body.data.tasks).toHaveLength(1);
  });
});

describe('GET /tasks, assign and complete', () => {
  let o: TestOrg;
  let member: OrgUser;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    o = await t.newOrg('Queue Realty');
    member = await addUser(o.orgId, { email: 'member@queue.test', firstName: 'Mo', lastName: 'Member', role: 'coordinator' });
    const d1 = await createDeal(o, '10 Queue St');
    const d2 = await createDeal(o, '11 Queue St');
    ids.late = (await postTask(t, o.keys.draft, d1.id, { title: 'late', dueDate: '2026-12-20' })).id;
    ids.undated = (await postTask(t, o.keys.draft, d2.id, { title: 'undated' })).id;
    ids.early = (await postTask(t, o.keys.draft, d2.id, { title: 'early', dueDate: '2026-12-01', assigneeUserId: member.userId })).id;
    ids.mid = (await postTask(t, o.keys.draft, d1.id, { title: 'mid', dueDate: '2026-12-10', assigneeUserId: o.ownerUserId })).id;
  });
  const titles = (tasks: any[]) => tasks.map((x) => x.title);

  it('lists open tasks soonest due first, undated last, with limit', async () => {
    expect(titles(await listTasks('', o.keys.read))).toEqual(['early', 'mid', 'late', 'undated']);
    expect(titles(await listTasks('?limit=2', o.keys.read))).toEqual(['early', 'mid']);
  });

  it('filters by assignedTo: a user id, me, unassigned', async () => {
    expect(titles(await listTasks(`?assignedTo=${member.userId}`, o.keys.read))).toEqual(['early']);
    expect(titles(await listTasks('?assignedTo=me', o.keys.read))).toEqual(['mid']);
    expect(titles(await listTasks('?assignedTo=unassigned', o.keys.read))).toEqual(['late', 'undated']);
    expect(await listTasks(`?assignedTo=${randomUUID()}`, o.keys.read)).toEqual([]);
  });

  it('assigns to a member, rejects a non-member with 422, and null unassigns', async () => {
    const call = (body: unknown) => t.call('POST', `/api/v1/tasks/${ids.late}/assign`, { key: o.keys.draft, body });
    const r = await call({ assigneeUserId: member.userId });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ id: ids.late, title: 'late', assigneeUserId: member.userId });
    expect(titles(await listTasks(`?assignedTo=${member.userId}`, o.keys.read))).toEqual(['early', 'late']);

    const bad = await call({ assigneeUserId: outsider.ownerUserId });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toEqual({ code: 'validation_error', message: 'The request is invalid.', fields: { assigneeUserId: 'is not a member of this organization' } });
    expect(titles(await listTasks(`?assignedTo=${member.userId}`, o.keys.read))).toEqual(['early', 'late']);

    const un = await call({ assigneeUserId: null });
    expect(un.status).toBe(200);
    expect(un.body.data.assigneeUserId).toBeNull();
    expect(titles(await listTasks('?assignedTo=unassigned', o.keys.read))).toEqual(['late', 'undated']);

    const missing = await call({});
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.error.fields)).toEqual(['assigneeUserId']);
    const unknown = await t.call('POST', `/api/v1/tasks/${randomUUID()}/assign`, { key: o.keys.draft, body: { assigneeUserId: null } });
    expect(unknown.status).toBe(404);
  });

  it('completing removes the task from GET /tasks and emits task.completed exactly once', async () => {
    const before = (await outboxEvents(o.orgId, 'task.completed')).length;
    const done = await t.call('POST', `/api/v1/tasks/${ids.mid}/complete`, { key: o.keys.draft, body: { note: 'Done by phone' } });
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ id: ids.mid, status: 'completed', completionNote: 'Done by phone', completedBy: o.ownerUserId, completedAt: expect.any(String) });
    expect(titles(await listTasks('', o.keys.read))).toEqual(['early', 'late', 'undated']);
    expect(await listTasks('?assignedTo=me', o.keys.read)).toEqual([]);

    const again = await t.call('POST', `/api/v1/tasks/${ids.mid}/complete`, { key: o.keys.draft });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ status: 'completed', completedAt: done.body.data.completedAt, completionNote: 'Done by phone' });
    const events = (await outboxEvents(o.orgId, 'task.completed')).filter((e) => e.data.taskId === ids.mid);
    expect(events).toHaveLength(1);
    expect((await outboxEvents(o.orgId, 'task.completed')).length).toBe(before + 1);
    expect(events[0]).toMatchObject({ eventType: 'task.completed', organizationId: o.orgId, userId: o.ownerUserId, timestamp: done.body.data.completedAt });
    expect(events[0].data).toMatchObject({ taskId: ids.mid, title: 'mid', completedAt: done.body.data.completedAt });
  });

  it('completion needs the draft scope and an existing task', async () => {
    const ro = await t.call('POST', `/api/v1/tasks/${ids.early}/complete`, { key: o.keys.read });
    expect(ro.status).toBe(403);
    expect(ro.body.error.code).toBe('insufficient_scope');
    expect(titles(await listTasks('', o.keys.read))).toContain('early');
    const missing = await complete(randomUUID());
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: { code: 'not_found', message: 'Task not found.' } });
  });
});

describe('tasks linked to a key date the deal does not have yet', () => {
  it('start undated and take the date once it is set', async () => {
    const deal = await createDeal(org, '3 Later St');
    const task = await postTask(t, org.keys.draft, deal.id, { title: 'Appraisal follow-up', linkedMilestoneName: 'AppraisalDeadline' });
    expect(task).toMatchObject({ dueDate: null, linkedMilestoneName: 'AppraisalDeadline', dueOffsetDays: 0 });
    await putKeyDates(t, org.keys.draft, deal.id, [{ keyDateType: 'AppraisalDeadline', dateValue: '2026-12-18' }]);
    const d = (await t.call('GET', `/api/v1/transactions/${deal.id}`, { key: org.keys.read })).body.data;
    expect(d.tasks.find((x: any) => x.id === task.id).dueDate).toBe('2026-12-18');
  });
});
