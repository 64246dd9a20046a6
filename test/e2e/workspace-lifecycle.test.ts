/**
 * Workspace deletion and export end to end, over HTTP against the local runtime with a pinned request clock: the
 * freeze, cancel, reschedule and purge (then counting the organization's items and objects, and every other
 * organization's), and an export built by the scheduler's worker, delivered by email, downloaded, opened and
 * expired.
 */
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { simpleParser } from 'mailparser';
import { unzipSync, strFromU8 } from 'fflate';
import { db, tableName } from '#db/client';
import { addUser } from '#db/orgs';
import { createApiKey } from '#db/api-keys';
import { listKeys, orgObjectPrefixes } from '#ports/blob-store';
import { setClock } from '#ports/clock';
import { storedMail } from '#lib/local/smtp-sink';
import { listLocalSchedules } from '#ports/scheduler/local-store';
import { startTestRuntime, type TestRuntime } from '#test/support/runtime-harness';
import { apiClient, newDeal, newOrg, startWebhookReceiver, subscribe, until, type Api, type WebhookReceiver } from '#test/support/webhook-receiver';
import { pdfBytes } from './documents-fixtures.ts';
import { mintAccessToken } from '../support/oauth-flow.ts';

let t: TestRuntime;
let api: Api;
let receiver: WebhookReceiver;
const T0 = Date.parse('2031-03-03T10:00:00Z');
const DAY = 86_400_000;

beforeAll(async () => {
  t = await startTestRuntime('wsl');
  api = apiClient(t.rt.baseUrl);
  receiver = await startWebhookReceiver({ behaviour: 'ok' });
}, 60_000);
afterAll(async () => {
  setClock();
  await receiver?.close();
  await t?.close();
});
afterEach(() => setClock(() => T0));

/** Items whose `orgId` is the organization's or whose keys name it (a scan: test-only). */
async function itemsOf(orgId: string): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db().send(new ScanCommand({ TableName: tableName(), ExclusiveStartKey: start }));
    for (const i of out.Items ?? []) if (i.orgId === orgId || JSON.stringify([i.PK, i.SK, i.GSI1PK, i.GSI2PK]).includes(orgId)) found.push(i);
    start = out.LastEvaluatedKey;
  } while (start);
  return found;
}
const objectsOf = async (orgId: string) => (await Promise.all(orgObjectPrefixes(orgId).map(listKeys))).flat();
const mailTo = (address: string) => storedMail(t.rt.messaging.smtp.directory).filter((m) => m.to.includes(address));

/** An organization with a deal, an uploaded document (its extraction finished), and an owner's email. */
async function populatedOrg(name: string) {
  const org = await newOrg(name);
  const dealId = await newDeal(org, `${Math.floor(Math.random() * 900) + 100} Purge St`);
  const pdf = pdfBytes(name);
  const up = await api.ok('POST', '/api/v1/documents', { key: org.keys.actions, body: { fileName: 'contract.pdf', contentType: 'application/pdf', contentBase64: pdf.toString('base64'), transactionId: dealId } });
  const documentId = up.data.documentId as string;
  await until('extraction finished', async () => (await itemsOf(org.orgId)).some((i) => i.entity === 'ExtractionJob' && (i.state === 'completed' || i.state === 'failed')), 20_000);
  await t.rt.s3.idle();
  const owner = (await api.ok('GET', '/api/v1/org/users', { key: org.keys.read })).data.find((u: any) => u.role === 'owner');
  return { ...org, dealId, documentId, pdf, ownerEmail: owner.email as string };
}

/** The local scheduler's waiting schedules of `target` for organization `orgId`. */
const schedulesOf = (target: string, orgId: string) => listLocalSchedules(t.rt.messaging.scheduleStore).schedules.filter((s) => s.target === target && s.payload.orgId === orgId);
/** Waits until the outbox relay (webhook fan-out's stream consumer) has made `count` such schedules. */
const relayed = (target: string, orgId: string, count: number) =>
  until(`${count} ${target} schedule(s) of ${orgId} made by the outbox relay`, () => schedulesOf(target, orgId).length === count, 15_000, { detail: () => schedulesOf(target, orgId) });

describe('workspace deletion', () => {
  it('freezes, cancels, reschedules and purges only the deleted organization', async () => {
    setClock(() => T0);
    const a = await populatedOrg('Doomed Realty');
    const b = await populatedOrg('Bystander Realty');
    const sub = await subscribe(api, a.keys.actions, `${receiver.url}/hook`);
    receiver.setSecret(sub.secret);
    const member = await addUser(a.orgId, { email: 'agent@example.test', firstName: 'A', lastName: 'Gent', role: 'agent' });
    const memberKey = (await createApiKey({ orgId: a.orgId, userId: member.userId, name: 'agent', scopes: ['read', 'draft', 'actions'] })).value;
    // A pending reminder (its schedule made by the outbox relay) and a stored report: the purge removes both.
    const reminder = (
      await api.ok('POST', `/api/v1/transactions/${a.dealId}/reminders`, {
        key: a.keys.actions,
        body: { daysBeforeReminder: 3, deadlineDate: '2031-06-01', deadlineType: null, emailTemplateId: null, milestoneId: null, note: null, recipientEmails: 'tc@example.test', recipientRoles: null, reminderTimeOfDay: '09:00' },
      })
    ).data;
    await until('the reminder schedule made by the outbox relay', () => schedulesOf('scheduled-send', a.orgId).some((s) => s.name === `rem-${reminder.id}-1`), 15_000);
    expect((await api.ok('GET', `/api/v1/transactions/${a.dealId}/reports/communication-log?format=pdf`, { key: a.keys.read })).data.format).toBe('pdf');
    expect((await objectsOf(a.orgId)).some((k) => k.startsWith(`reports/${a.orgId}/`))).toBe(true);
    const bItemsBefore = (await itemsOf(b.orgId)).length;
    const bObjectsBefore = (await objectsOf(b.orgId)).length;
    expect(bItemsBefore).toBeGreaterThan(5);
    expect(bObjectsBefore).toBeGreaterThan(0);

    // Only the owner, and only with the exact name.
    const notOwner = await api.call('POST', '/api/v1/account/deletion/request', { key: memberKey, body: { confirmName: 'Doomed Realty' } });
    expect(notOwner.status).toBe(403);
    const wrongName = await api.call('POST', '/api/v1/account/deletion/request', { key: a.keys.actions, body: { confirmName: 'doomed realty' } });
    expect(wrongName.status).toBe(422);
    expect(wrongName.body.error.code).toBe('validation_error');
    expect(Object.keys(wrongName.body.error.fields)).toEqual(['confirmName']);
    expect((await api.ok('GET', '/api/v1/account/deletion/status', { key: a.keys.read })).data.scheduled).toBe(false);
    expect(listLocalSchedules(t.rt.messaging.scheduleStore).schedules.filter((s) => s.target === 'workspace-purge')).toHaveLength(0);

    // Scheduled: frozen, emailed, status for any reader.
    const scheduled = (await api.ok('POST', '/api/v1/account/deletion/request', { key: a.keys.actions, body: { confirmName: 'Doomed Realty' } })).data;
    expect(scheduled).toMatchObject({ scheduled: true, state: 'scheduled', isOwner: true, emailed: true, gracePeriodDays: 7, error: null });
    expect(Date.parse(scheduled.dueAt)).toBe(T0 + 7 * DAY);
    // Requested with the deletion (schedule.requested), made by the relay: due at the end of the grace period.
    await relayed('workspace-purge', a.orgId, 1);
    expect(Date.parse(schedulesOf('workspace-purge', a.orgId)[0]!.dueAt)).toBe(T0 + 7 * DAY);
    // The notice is queued with the deletion; the send worker emails it.
    const notice = await until('the deletion notice', async () => {
      for (const m of mailTo(a.ownerEmail)) {
        const parsed = await simpleParser(m.raw);
        if (parsed.subject === 'Workspace "Doomed Realty" is scheduled for deletion') return parsed;
      }
      return undefined;
    }, 10_000);
    expect(notice.text).toContain('/api/v1/account/deletion/cancel');
    const refused = await api.call('POST', `/api/v1/transactions/${a.dealId}/tasks`, { key: a.keys.actions, body: { title: 'during grace' } });
    // Not (IK): a 422 naming the workspace (spec "Endpoints": 409 only where marked (IK)); an (IK) send is a 409.
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('validation_error');
    expect(refused.body.error.fields).toEqual({ workspace: expect.stringMatching(/scheduled for deletion/) });
    expect(refused.body.error.message).toMatch(/scheduled for deletion.*deletion\/cancel/s);
    const send = await api.call('POST', `/api/v1/transactions/${a.dealId}/messages`, { key: a.keys.actions, body: { toEmail: 'client@example.com', subject: 'Hi', body: 'during grace' } });
    expect(send.status).toBe(409);
    expect(send.body.error.code).toBe('conflict');
    expect((await api.call('GET', `/api/v1/transactions/${a.dealId}`, { key: a.keys.read })).status).toBe(200);
    // An OAuth access token of a member is frozen too (its grant does not carry the flag: the deletion is re-read).
    const token = await mintAccessToken(t.rt.baseUrl, a.orgId, member.userId);
    expect((await api.call('POST', `/api/v1/transactions/${a.dealId}/tasks`, { key: token, body: { title: 'oauth during grace' } })).status).toBe(422);
    expect((await api.call('GET', `/api/v1/transactions/${a.dealId}`, { key: token })).status).toBe(200);
    const memberStatus = (await api.ok('GET', '/api/v1/account/deletion/status', { key: memberKey })).data;
    expect(memberStatus).toMatchObject({ scheduled: true, isOwner: false, dueAt: scheduled.dueAt });
    // Another organization is not frozen.
    expect((await api.call('POST', `/api/v1/transactions/${b.dealId}/tasks`, { key: b.keys.actions, body: { title: 'bystander' } })).status).toBe(200);
    const bItemsAfterWrite = (await itemsOf(b.orgId)).length;

    // Cancel unfreezes; a second cancel has nothing to cancel.
    expect((await api.ok('POST', '/api/v1/account/deletion/cancel', { key: a.keys.actions })).data).toEqual({ cancelled: true });
    expect((await api.ok('POST', '/api/v1/account/deletion/cancel', { key: a.keys.actions })).data).toEqual({ cancelled: false });
    await relayed('workspace-purge', a.orgId, 0);
    expect((await api.call('POST', `/api/v1/transactions/${a.dealId}/tasks`, { key: a.keys.actions, body: { title: 'after cancel' } })).status).toBe(200);
    expect((await api.call('POST', `/api/v1/transactions/${a.dealId}/tasks`, { key: token, body: { title: 'oauth after cancel' } })).status).toBe(200);
    await until('task.created delivered', () => [...receiver.received.values()].some((e) => e.eventType === 'task.created'), 10_000);

    // Reschedule a day later; the purge falls due 7 days after that.
    setClock(() => T0 + DAY);
    const again = (await api.ok('POST', '/api/v1/account/deletion/request', { key: a.keys.actions, body: { confirmName: 'Doomed Realty' } })).data;
    expect(Date.parse(again.dueAt)).toBe(T0 + 8 * DAY);
    await relayed('workspace-purge', a.orgId, 1);
    setClock(() => T0 + 8 * DAY - 60_000);
    await t.rt.messaging.scheduler.tick();
    expect((await itemsOf(a.orgId)).length).toBeGreaterThan(5);
    const delivered = receiver.stats.requests;

    setClock(() => T0 + 8 * DAY + 1000);
    expect(await t.rt.messaging.scheduler.tick()).toBeGreaterThanOrEqual(1);
    expect(await itemsOf(a.orgId)).toEqual([]);
    expect(await objectsOf(a.orgId)).toEqual([]);
    expect(listLocalSchedules(t.rt.messaging.scheduleStore).schedules.filter((s) => s.payload.orgId === a.orgId)).toEqual([]);
    expect(listLocalSchedules(t.rt.messaging.scheduleStore).deadLetters).toEqual([]);
    expect((await itemsOf(b.orgId)).length).toBe(bItemsAfterWrite);
    expect((await objectsOf(b.orgId)).length).toBe(bObjectsBefore);
    expect((await api.call('GET', '/api/v1/transactions', { key: a.keys.read })).status).toBe(401);
    expect((await api.call('GET', '/api/v1/transactions', { key: b.keys.read })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.stats.requests).toBe(delivered);
  }, 120_000);
});

describe('workspace export', () => {
  it('builds, emails, opens and expires an archive; one at a time; owner only', async () => {
    setClock(() => T0);
    const c = await populatedOrg('Archive Realty');
    const member = await addUser(c.orgId, { email: 'coord@example.test', firstName: 'C', lastName: 'Oord', role: 'coordinator' });
    const memberKey = (await createApiKey({ orgId: c.orgId, userId: member.userId, name: 'coord', scopes: ['read', 'actions'] })).value;
    expect((await api.ok('GET', '/api/v1/account/export/latest', { key: c.keys.read })).data).toEqual({ exists: false });
    expect((await api.call('POST', '/api/v1/account/export/request', { key: memberKey })).status).toBe(403);
    expect((await api.call('GET', '/api/v1/account/export/latest', { key: memberKey })).status).toBe(403);

    const first = await api.call('POST', '/api/v1/account/export/request', { key: c.keys.actions });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ exists: true, state: 'building', alreadyRunning: false });
    expect(first.text).not.toMatch(/https?:\/\/[^"]*exports\//);
    const second = (await api.ok('POST', '/api/v1/account/export/request', { key: c.keys.actions })).data;
    expect(second).toMatchObject({ exportId: first.body.data.exportId, alreadyRunning: true, state: 'building' });
    await relayed('workspace-export', c.orgId, 1);

    setClock(() => T0 + 2 * 60_000);
    await t.rt.messaging.scheduler.tick();
    const latest = (await api.ok('GET', '/api/v1/account/export/latest', { key: c.keys.read })).data;
    expect(latest).toMatchObject({ exportId: first.body.data.exportId, state: 'completed', expired: false });
    expect(Date.parse(latest.expiresAt)).toBe(T0 + 2 * 60_000 + DAY);

    const mail = await simpleParser(mailTo(c.ownerEmail).at(-1)!.raw);
    const url = /(http\S+exports\/\S+)/.exec(mail.text ?? '')?.[1];
    expect(url).toBeDefined();
    const res = await fetch(url!);
    expect(res.status).toBe(200);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const manifest = JSON.parse(strFromU8(files['manifest.json']));
    expect(manifest).toMatchObject({ orgId: c.orgId, workspaceName: 'Archive Realty', documentCount: 1 });
    const deals = JSON.parse(strFromU8(files['records/Transaction.json']));
    expect(deals.map((d: any) => d.id)).toContain(c.dealId);
    expect(Object.keys(files)).not.toContain('records/ApiKey.json');
    const docPath = Object.keys(files).find((f) => f.startsWith(`documents/${c.documentId}/`));
    expect(docPath).toBeDefined();
    expect(Buffer.from(files[docPath!]).equals(c.pdf)).toBe(true);
    expect(manifest.recordCount).toBe(Object.entries(files).filter(([f]) => f.startsWith('records/')).reduce((n, [, b]) => n + JSON.parse(strFromU8(b)).length, 0));

    // A new export may start once the last one finished; the old one expires by the clock.
    setClock(() => T0 + 2 * 60_000 + DAY + 1000);
    const expired = (await api.ok('GET', '/api/v1/account/export/latest', { key: c.keys.read })).data;
    expect(expired).toMatchObject({ state: 'expired', expired: true });
  }, 60_000);
});
