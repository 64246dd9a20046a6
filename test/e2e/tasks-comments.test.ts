/** Task comments (add, list, author-only delete) and POST /tasks/delete, over HTTP. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { addUser, type OrgUser } from '#db/orgs';
import { createApiKey } from '#db/api-keys';
import { setClock } from '#ports/clock';
import { startTestApi, type TestApi, type TestOrg } from '../support/http-client.ts';
import { createDeal, pinClock, postTask } from './deal-fixtures.ts';

let t: TestApi;
let org: TestOrg;
let colleague: OrgUser;
let colleagueKey: string;
beforeAll(async () => {
  t = await startTestApi();
  org = await t.newOrg('Comment Realty');
  colleague = await addUser(org.orgId, { email: 'colleague@comment.test', firstName: 'Cole', lastName: 'League', role: 'agent' });
  colleagueKey = (await createApiKey({ orgId: org.orgId, userId: colleague.userId, name: 'colleague', scopes: ['read', 'draft', 'actions'] })).value;
});
afterAll(() => t.close());
afterEach(() => setClock());

const comments = (taskId: string, key = org.keys.read) => t.call('GET', `/api/v1/tasks/${taskId}/comments`, { key });
const addComment = (taskId: string, content: string, key = org.keys.draft) => t.call('POST', `/api/v1/tasks/${taskId}/comments`, { key, body: { content } });
const deleteComment = (taskId: string, commentId: string, key = org.keys.draft) => t.call('DELETE', `/api/v1/tasks/${taskId}/comments/${commentId}`, { key });

describe('task comments', () => {
  let taskId: string;
  beforeAll(async () => {
    const deal = await createDeal(org, '1 Comment St');
    taskId = (await postTask(t, org.keys.draft, deal.id, { title: 'Collect HOA docs' })).id;
  });

  it('adds comments authored by the caller and lists them oldest first', async () => {
    pinClock('2026-06-01T09:00:00Z');
    const first = await addComment(taskId, 'Requested from HOA');
    pinClock('2026-06-01T08:00:00Z');
    const earlier = await t.call('POST', `/api/v1/tasks/${taskId}/comments`, { key: colleagueKey, body: { content: 'Management co. is slow' } });
    pinClock('2026-06-02T09:00:00Z');
    const last = await addComment(taskId, 'Received');
    setClock();
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ id: expect.any(String), taskId, content: 'Requested from HOA', authorUserId: org.ownerUserId, createdAt: expect.stringMatching(/^2026-06-01T09:00/) });
    expect(earlier.body.data.authorUserId).toBe(colleague.userId);

    const r = await comments(taskId);
    expect(r.status).toBe(200);
    expect(r.body.data.map((c: any) => c.id)).toEqual([earlier.body.data.id, first.body.data.id, last.body.data.id]);
    expect(r.body.data[0]).toEqual(earlier.body.data);
  });

  it('rejects empty content and unknown tasks', async () => {
    const empty = await addComment(taskId, '  ');
    expect(empty.status).toBe(422);
    expect(Object.keys(empty.body.error.fields)).toEqual(['content']);
    const unknown = await addComment(randomUUID(), 'hello');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: { code: 'not_found', message: 'Task not found.' } });
    expect((await comments(randomUUID())).status).toBe(404);
  });

  it('only the author may delete a comment: another member of the org gets 403 forbidden', async () => {
    const mine = (await addComment(taskId, 'Owner note')).body.data;
    const theirs = (await t.call('POST', `/api/v1/tasks/${taskId}/comments`, { key: colleagueKey, body: { content: 'Colleague note' } })).body.data;

    const forbidden = await deleteComment(taskId, mine.id, colleagueKey);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.code).toBe('forbidden');
    const forbidden2 = await deleteComment(taskId, theirs.id, org.keys.actions);
    expect(forbidden2.status).toBe(403);
    expect(forbidden2.body.error.code).toBe('forbidden');
    let ids = (await comments(taskId)).body.data.map((c: any) => c.id);
    expect(ids).toContain(mine.id);
    expect(ids).toContain(theirs.id);

    const ok = await deleteComment(taskId, mine.id);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ deleted: true, commentId: mine.id });
    const ok2 = await deleteComment(taskId, theirs.id, colleagueKey);
    expect(ok2.body).toEqual({ deleted: true, commentId: theirs.id });
    ids = (await comments(taskId)).body.data.map((c: any) => c.id);
    expect(ids).not.toContain(mine.id);
    expect(ids).not.toContain(theirs.id);

    const gone = await deleteComment(taskId, mine.id);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: { code: 'not_found', message: 'Comment not found.' } });
  });

  it('a comment id under the wrong task is not found', async () => {
    const deal = await createDeal(org, '2 Comment St');
    const otherTask = (await postTask(t, org.keys.draft, deal.id, { title: 'Other' })).id;
    const c = (await addComment(taskId, 'Pinned to the first task')).body.data;
    const r = await deleteComment(otherTask, c.id);
    expect(r.status).toBe(404);
    expect((await comments(taskId)).body.data.map((x: any) => x.id)).toContain(c.id);
  });
});

describe('POST /tasks/delete', () => {
  it('deletes the organization\'s tasks and reports unknown and foreign ids as notFound', async () => {
    const other = await t.newOrg('Other Delete Realty');
    const deal = await createDeal(org, '3 Delete St');
    const foreignDeal = await createDeal(other, '4 Foreign St');
    const a = (await postTask(t, org.keys.draft, deal.id, { title: 'Delete me A', dueDate: '2026-12-01' })).id;
    const b = (await postTask(t, org.keys.draft, deal.id, { title: 'Delete me B' })).id;
    const keep = (await postTask(t, org.keys.draft, deal.id, { title: 'Keep me' })).id;
    const foreign = (await postTask(t, other.keys.draft, foreignDeal.id, { title: 'Not yours' })).id;
    await addComment(a, 'comment on a doomed task');
    const random = randomUUID();

    const r = await t.call('POST', '/api/v1/tasks/delete', { key: org.keys.actions, body: { taskIds: [a, random, b, foreign, a] } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ deleted: [a, b], notFound: [random, foreign] });

    const d = (await t.call('GET', `/api/v1/transactions/${deal.id}`, { key: org.keys.read })).body.data;
    expect(d.tasks.map((x: any) => x.id)).toEqual([keep]);
    const open = (await t.call('GET', `/api/v1/tasks?transactionId=${deal.id}`, { key: org.keys.read })).body.data;
    expect(open.map((x: any) => x.id)).toEqual([keep]);
    expect((await comments(a)).status).toBe(404);
    expect((await t.call('POST', `/api/v1/tasks/${a}/complete`, { key: org.keys.draft })).status).toBe(404);

    // The other organization's task is untouched.
    const theirs = (await t.call('GET', '/api/v1/tasks', { key: other.keys.read })).body.data;
    expect(theirs.map((x: any) => x.id)).toEqual([foreign]);
    expect((await comments(foreign, other.keys.read)).status).toBe(200);

    const again = await t.call('POST', '/api/v1/tasks/delete', { key: org.keys.actions, body: { taskIds: [a] } });
    expect(again.body).toEqual({ deleted: [], notFound: [a] });
  });

  it('needs the actions scope and valid uuids', async () => {
    const deal = await createDeal(org, '5 Scope St');
    const id = (await postTask(t, org.keys.draft, deal.id, { title: 'Scoped' })).id;
    const draft = await t.call('POST', '/api/v1/tasks/delete', { key: org.keys.draft, body: { taskIds: [id] } });
    expect(draft.status).toBe(403);
    expect(draft.body.error.code).toBe('insufficient_scope');
    const bad = await t.call('POST', '/api/v1/tasks/delete', { key: org.keys.actions, body: { taskIds: ['nope'] } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error.fields)).toEqual(['taskIds[0]']);
    const empty = await t.call('POST', '/api/v1/tasks/delete', { key: org.keys.actions, body: { taskIds: [] } });
    expect(empty.status).toBe(422);
    const still = (await t.call('GET', `/api/v1/tasks?transactionId=${deal.id}`, { key: org.keys.read })).body.data;
    expect(still.map((x: any) => x.id)).toEqual([id]);
  });
});
