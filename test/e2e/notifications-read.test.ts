/**
 * Marking notifications read (designed here, issue 25): `POST /notifications/{notificationId}/read` and
 * `POST /notifications/read` (all, or those created at or before `before`), over HTTP to the local API. Both are
 * idempotent (the first `readAt` is kept; marking again marks none), the list's `unreadOnly` and the unread count
 * follow, and nobody but the member marks their notifications: another member of the organization and another
 * organization get a 404 and change nothing. The notifications are stored through the repository (fan-out writes
 * them from events: test/integration/webhook-fanout-notifications.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { addUser } from '#db/orgs';
import { createApiKey } from '#db/api-keys';
import { notificationOf, putNotification } from '#db/notifications';
import { startTestApi, type TestApi, type TestOrg } from '../support/http-client.ts';

let t: TestApi;
let a: TestOrg;
let b: TestOrg;
/** Org A's owner's notifications, oldest first, one minute apart. */
const notes: { id: string; createdAt: string }[] = [];
let memberKey: string;

beforeAll(async () => {
  t = await startTestApi();
  a = await t.newOrg('Read Marks Realty');
  b = await t.newOrg('Other Realty');
  const start = Date.parse('2026-11-20T15:00:00.000Z');
  for (let i = 0; i < 4; i++) {
    const n = { id: randomUUID(), createdAt: new Date(start + i * 60_000).toISOString() };
    const draft = { type: 'form.submission_received', title: 'Intake form submitted', body: `Submission ${i + 1}`, transactionId: null, to: 'all' as const };
    expect(await putNotification(a.orgId, a.ownerUserId, notificationOf(draft, n.id, { n: i + 1 }, n.createdAt))).toBe(true);
    notes.push(n);
  }
  const member = await addUser(a.orgId, { email: 'member@readmarks.test', firstName: 'Mia', lastName: 'Member', role: 'agent' });
  memberKey = (await createApiKey({ orgId: a.orgId, userId: member.userId, name: 'member', scopes: ['read', 'draft', 'actions'] })).value;
});
afterAll(async () => {
  await t.close();
});

const unreadCount = async (key = a.keys.read) => (await t.call('GET', '/api/v1/notifications/unread-count', { key })).body.data.unreadCount as number;
const markOne = (id: string, key = a.keys.draft) => t.call('POST', `/api/v1/notifications/${id}/read`, { key });

describe('marking notifications read', () => {
  it('marks one read with readAt, keeps the first readAt when marked again, and the list and count follow', async () => {
    expect(await unreadCount()).toBe(4);
    const first = await markOne(notes[3]!.id);
    expect(first.status, first.text).toBe(200);
    expect(first.body.data).toMatchObject({ id: notes[3]!.id, body: 'Submission 4', createdAt: notes[3]!.createdAt });
    expect(Date.parse(first.body.data.readAt)).toBeGreaterThan(0);
    const again = await markOne(notes[3]!.id);
    expect(again.status).toBe(200);
    expect(again.body.data.readAt).toBe(first.body.data.readAt);
    expect(await unreadCount()).toBe(3);
    const unread = await t.call('GET', '/api/v1/notifications?unreadOnly=true&limit=10', { key: a.keys.read });
    expect(unread.body.data.map((n: { id: string }) => n.id)).toEqual([notes[2]!.id, notes[1]!.id, notes[0]!.id]);
    expect(unread.body.unreadCount).toBe(3);
    const all = await t.call('GET', '/api/v1/notifications?limit=10', { key: a.keys.read });
    expect(all.body.data.find((n: { id: string }) => n.id === notes[3]!.id).readAt).toBe(first.body.data.readAt);
  });

  it("is the member's own: another member and another organization get a 404 and mark nothing", async () => {
    const fromMember = await markOne(notes[0]!.id, memberKey);
    expect(fromMember.status).toBe(404);
    expect(fromMember.body.error.code).toBe('not_found');
    const fromOtherOrg = await markOne(notes[0]!.id, b.keys.draft);
    expect(fromOtherOrg.status).toBe(404);
    const allFromOtherOrg = await t.call('POST', '/api/v1/notifications/read', { key: b.keys.draft });
    expect(allFromOtherOrg.body.data).toMatchObject({ marked: 0, unreadCount: 0 });
    const allFromMember = await t.call('POST', '/api/v1/notifications/read', { key: memberKey });
    expect(allFromMember.body.data.marked).toBe(0);
    expect(await unreadCount()).toBe(3);
  });

  it('refuses an unknown id (404), a malformed one (422) and a read-only key (403)', async () => {
    expect((await markOne(randomUUID())).status).toBe(404);
    const malformed = await markOne('not-a-uuid');
    expect(malformed.status).toBe(422);
    expect(malformed.body.error.fields).toHaveProperty('notificationId');
    const readOnly = await markOne(notes[0]!.id, a.keys.read);
    expect(readOnly.status).toBe(403);
    expect(readOnly.headers.get('www-authenticate')).toContain('scope="draft"');
    expect(await unreadCount()).toBe(3);
  });

  it('marks all read up to `before`, then the rest, then none', async () => {
    const upTo = await t.call('POST', '/api/v1/notifications/read', { key: a.keys.draft, body: { before: '2026-11-20T09:01:00-06:00' } });
    expect(upTo.status, upTo.text).toBe(200);
    // 09:01 in Chicago is 15:01 UTC: the first two (15:00 and 15:01) are marked, the third stays unread.
    expect(upTo.body.data).toMatchObject({ marked: 2, unreadCount: 1 });
    const list = await t.call('GET', '/api/v1/notifications?unreadOnly=true', { key: a.keys.read });
    expect(list.body.data.map((n: { id: string }) => n.id)).toEqual([notes[2]!.id]);
    const rest = await t.call('POST', '/api/v1/notifications/read', { key: a.keys.draft });
    expect(rest.body.data).toMatchObject({ marked: 1, unreadCount: 0 });
    const none = await t.call('POST', '/api/v1/notifications/read', { key: a.keys.draft, body: {} });
    expect(none.body.data).toMatchObject({ marked: 0, unreadCount: 0 });
    const all = (await t.call('GET', '/api/v1/notifications?limit=10', { key: a.keys.read })).body.data as { id: string; readAt: string }[];
    expect(all.find((n) => n.id === notes[0]!.id)!.readAt).toBe(upTo.body.data.readAt);
    expect(all.find((n) => n.id === notes[2]!.id)!.readAt).toBe(rest.body.data.readAt);
  });

  it('refuses a `before` that is not an RFC 3339 timestamp and an unknown field (422)', async () => {
    const bad = await t.call('POST', '/api/v1/notifications/read', { key: a.keys.draft, body: { before: 'yesterday' } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.fields).toHaveProperty('before');
    const unknown = await t.call('POST', '/api/v1/notifications/read', { key: a.keys.draft, body: { beforeDate: '2026-11-20T15:00:00Z' } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.fields).toHaveProperty('beforeDate');
  });
});
