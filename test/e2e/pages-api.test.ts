/**
 * Issue 12 over HTTP against the full local runtime: disclosure packages (all 7 operations, the share email, the
 * recipient page's 404 after revoke), intake forms (form, links, a submission posted as a browser posts it,
 * submissions, intake status), the portal link, revoking the portal and form links (designed here), notifications
 * derived from the events, and device registration with push recorded in the local sink. Issue 25: the organization's
 * branding settings (designed here) on the pages and their one stylesheet, a download whose redirect the page's CSP
 * allows, and the portal's agent contact and past key dates. Every JSON response is checked against the OpenAPI document (`apiClient`).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '#db/api-keys';
import { addUser } from '#db/orgs';
import { SYSTEM_FORMS } from '#domain/intake-forms';
import { suppressEmail } from '#db/consent';
import { apiClient, until, type Api } from '../support/webhook-receiver.ts';
import { linkContact, newDeal, newOrg, startMessagingHarness, uploadDocument, type MessagingHarness, type TestOrg } from './messaging-fixtures.ts';
import { pdfBytes } from './documents-fixtures.ts';

let h: MessagingHarness;
let api: Api;
let org: TestOrg;
let other: TestOrg;
let dealId: string;
let docA: string;
let docB: string;
const BUYER_INTAKE = SYSTEM_FORMS[0]!.id;

beforeAll(async () => {
  h = await startMessagingHarness('pages-api');
  api = apiClient(h.rt.baseUrl);
  [org, other] = await Promise.all([newOrg('Pages Realty'), newOrg('Other Realty')]);
  dealId = await newDeal(org, '1207 Live Oak Ln');
  [docA, docB] = await Promise.all([uploadDocument(h, org, dealId, 'sellers-disclosure.pdf'), uploadDocument(h, org, dealId, 'hoa-addendum.pdf')]);
}, 60_000);
afterAll(() => h?.close());

/** The recipient's link in a raw email (quoted-printable soft breaks undone). */
const linkIn = (raw: string) => /http:\/\/\S+\/d\/[A-Za-z0-9_-]{43}/.exec(raw.replace(/=\r?\n/g, '').replace(/=3D/g, '='))?.[0];
const mailTo = (addr: string) => h.mail().filter((m) => m.raw.toString('utf8').includes(`To: ${addr}`));
const postForm = (url: string, fields: Record<string, string>) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString(), redirect: 'manual' });

describe('disclosure packages', () => {
  it('a draft activates once it has documents; activate is idempotent; documents are checked', async () => {
    const draft = await api.ok('POST', '/api/v1/disclosure-packages', { key: org.keys.actions, body: { name: 'Seller disclosures', transactionId: dealId, requireAck: true } });
    expect(draft.data).toMatchObject({ status: 'draft', documentIds: [], requireAck: true, allowDownloads: true, transactionId: dealId });
    const empty = await api.call('POST', `/api/v1/disclosure-packages/${draft.data.id}/activate`, { key: org.keys.actions });
    expect(empty.status).toBe(422);
    const foreignDoc = await api.call('PUT', `/api/v1/disclosure-packages/${draft.data.id}/documents`, { key: org.keys.actions, body: { documentIds: ['3f1d2c4b-5a69-4e7f-8a1b-2c3d4e5f6a7b'] } });
    expect(foreignDoc.status).toBe(422);
    expect(foreignDoc.body.error.fields).toHaveProperty('documentIds[0]');
    const filled = await api.ok('PUT', `/api/v1/disclosure-packages/${draft.data.id}/documents`, { key: org.keys.actions, body: { documentIds: [docB, docA] } });
    expect(filled.data.items.map((i: any) => i.fileName)).toEqual(['hoa-addendum.pdf', 'sellers-disclosure.pdf']);
    const first = await api.ok('POST', `/api/v1/disclosure-packages/${draft.data.id}/activate`, { key: org.keys.actions });
    const again = await api.ok('POST', `/api/v1/disclosure-packages/${draft.data.id}/activate`, { key: org.keys.actions });
    expect(first.data.status).toBe('active');
    expect(again.data.activatedAt).toBe(first.data.activatedAt);
    expect((await api.call('GET', `/api/v1/disclosure-packages/${draft.data.id}`, { key: other.keys.read })).status).toBe(404);
    expect((await api.call('POST', '/api/v1/disclosure-packages', { key: other.keys.actions, body: { transactionId: dealId } })).status).toBe(422);
  });

  it('invites a recipient by email; the page records the view; revoke ends access at once and is idempotent', async () => {
    const pkg = (await api.ok('POST', '/api/v1/disclosure-packages', { key: org.keys.actions, body: { name: 'HOA packet', transactionId: dealId, documentIds: [docA], allowDownloads: false } })).data;
    expect(pkg.status).toBe('active');
    const bad = await api.call('POST', `/api/v1/disclosure-packages/${pkg.id}/recipients`, { key: org.keys.actions, body: { email: 'not-an-address', displayLabel: null, audienceTier: null, contactId: null, expiresAt: null } });
    expect(bad.status).toBe(422);
    const added = await api.ok('POST', `/api/v1/disclosure-packages/${pkg.id}/recipients`, { key: org.keys.actions, body: { email: 'Pat.Buyer@example.com', displayLabel: 'Pat', audienceTier: 'buyer', contactId: null, expiresAt: null } });
    expect(added.data).toMatchObject({ email: 'pat.buyer@example.com', status: 'invited', viewCount: 0 });
    expect(JSON.stringify(added)).not.toMatch(/\/d\//);
    const mail = await until('the share email', () => mailTo('pat.buyer@example.com')[0], 10_000);
    const url = linkIn(mail.raw.toString('utf8'))!;
    expect(url).toBeDefined();

    const page = await fetch(url);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('HOA packet');
    expect(html).toContain('sellers-disclosure.pdf');
    expect(html).toContain('View only');
    expect(html).not.toContain(new URL(url).pathname.slice(3));
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const activity = (await api.ok('GET', `/api/v1/disclosure-packages/${pkg.id}/activity`, { key: org.keys.read })).data;
    expect(activity.recipients[0]).toMatchObject({ email: 'pat.buyer@example.com', status: 'viewed', viewCount: 1 });
    expect(activity.events.map((e: any) => e.action)).toEqual(['invited', 'viewed']);

    const revoked = await api.ok('DELETE', `/api/v1/disclosure-packages/${pkg.id}/recipients/${added.data.id}`, { key: org.keys.actions });
    const twice = await api.ok('DELETE', `/api/v1/disclosure-packages/${pkg.id}/recipients/${added.data.id}`, { key: org.keys.actions });
    expect([revoked.alreadyRevoked, twice.alreadyRevoked]).toEqual([false, true]);
    expect(twice.data.status).toBe('revoked');
    const gone = await fetch(url);
    const unknown = await fetch(url.replace(/\/d\/.*/, `/d/${'A'.repeat(43)}`));
    expect([gone.status, unknown.status]).toEqual([404, 404]);
    expect(await gone.text()).toBe(await unknown.text());
    expect((await api.call('DELETE', `/api/v1/disclosure-packages/${pkg.id}/recipients/3f1d2c4b-5a69-4e7f-8a1b-2c3d4e5f6a7b`, { key: org.keys.actions })).status).toBe(404);
  });

  it('the share email is queued: the recipient answers queued, then shows sent; a suppressed address is refused (409) and nothing is sent', async () => {
    const pkg = (await api.ok('POST', '/api/v1/disclosure-packages', { key: org.keys.actions, body: { name: 'Retry pack', transactionId: dealId, documentIds: [docA] } })).data;
    const invite = (email: string) => api.ok('POST', `/api/v1/disclosure-packages/${pkg.id}/recipients`, { key: org.keys.actions, body: { email, displayLabel: null, audienceTier: null, contactId: null, expiresAt: null } });
    const emailStatusOf = async (id: string) => (await api.ok('GET', `/api/v1/disclosure-packages/${pkg.id}`, { key: org.keys.read })).data.recipients.find((r: any) => r.id === id);

    const ok = await invite('queued@example.com');
    expect(ok.data).toMatchObject({ emailStatus: 'queued', emailDetail: null });
    await until('the share email', () => mailTo('queued@example.com')[0], 10_000);
    expect(await until('sent on the recipient', async () => ((await emailStatusOf(ok.data.id)).emailStatus === 'sent' ? true : undefined), 10_000)).toBe(true);

    // An address that bounced or complained before: refused at once (409), as for deal email, and nothing stored.
    await suppressEmail('bounced-before@example.com', 'bounce', 'mailbox does not exist', org.orgId, new Date());
    const refused = await api.call('POST', `/api/v1/disclosure-packages/${pkg.id}/recipients`, { key: org.keys.actions, body: { email: 'bounced-before@example.com', displayLabel: null, audienceTier: null, contactId: null, expiresAt: null } });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/bounced-before@example\.com is suppressed after a bounce/);
    expect((await api.ok('GET', `/api/v1/disclosure-packages/${pkg.id}`, { key: org.keys.read })).data.recipients.map((r: any) => r.email)).toEqual(['queued@example.com']);
    expect(mailTo('bounced-before@example.com')).toHaveLength(0);
    expect(mailTo('queued@example.com')).toHaveLength(1);
  });

  it('refuses a recipient for a draft package (409) and storing nothing', async () => {
    const draft = (await api.ok('POST', '/api/v1/disclosure-packages', { key: org.keys.actions, body: {} })).data;
    const r = await api.call('POST', `/api/v1/disclosure-packages/${draft.id}/recipients`, { key: org.keys.actions, body: { email: 'x@example.com', displayLabel: null, audienceTier: null, contactId: null, expiresAt: null } });
    expect(r.status).toBe(409);
    expect((await api.ok('GET', `/api/v1/disclosure-packages/${draft.id}`, { key: org.keys.read })).data.recipients).toEqual([]);
  });
});

describe('intake forms, portal, notifications, devices', () => {
  it('serves forms, links, submissions and intake status; a bad submission keeps what was typed', async () => {
    const form = (await api.ok('GET', `/api/v1/forms/${BUYER_INTAKE}`, { key: org.keys.read })).data;
    expect(form.fields.map((f: any) => f.name)).toContain('financing');
    expect((await api.call('GET', '/api/v1/forms/3f1d2c4b-5a69-4e7f-8a1b-2c3d4e5f6a7b', { key: org.keys.read })).status).toBe(404);
    const links = await api.ok('GET', `/api/v1/transactions/${dealId}/form-links`, { key: org.keys.read });
    expect(links.data.map((l: any) => l.formPurpose)).toEqual(['buyer_intake', 'client_contact']);
    expect((await api.call('GET', `/api/v1/transactions/${dealId}/form-links`, { key: other.keys.read })).status).toBe(404);
    const before = (await api.ok('GET', `/api/v1/transactions/${dealId}/intake-status`, { key: org.keys.read })).data;
    expect(before).toMatchObject({ complete: false, submittedCount: 0, totalCount: 2 });

    const url = links.data[0].url;
    const refused = await postForm(url, { fullName: 'Maria <b>Delgado</b>', email: 'maria@', financing: 'Cash' });
    const refusedHtml = await refused.text();
    expect(refused.status).toBe(422);
    expect(refusedHtml).toContain('value="Maria &lt;b&gt;Delgado&lt;/b&gt;"');
    expect(refusedHtml).toContain('Please enter an email address');
    expect((await api.ok('GET', `/api/v1/form-submissions?transactionId=${dealId}`, { key: org.keys.read })).data).toEqual([]);

    const sent = await postForm(url, { fullName: 'Maria Delgado', email: 'maria@example.com', financing: 'Cash', moveInDate: '2026-12-20', unknownField: 'dropped' });
    expect(sent.status).toBe(200);
    expect(await sent.text()).toContain('Thank you');
    const subs = (await api.ok('GET', `/api/v1/form-submissions?transactionId=${dealId}&formPurpose=buyer_intake`, { key: org.keys.read })).data;
    expect(subs).toHaveLength(1);
    const one = (await api.ok('GET', `/api/v1/form-submissions/${subs[0].id}`, { key: org.keys.read })).data;
    expect(Object.fromEntries(one.fields.map((f: any) => [f.name, f.value]))).toMatchObject({ fullName: 'Maria Delgado', financing: 'Cash', moveInDate: '2026-12-20', lenderName: '' });
    expect((await api.call('GET', `/api/v1/form-submissions/${subs[0].id}`, { key: other.keys.read })).status).toBe(404);
    const after = (await api.ok('GET', `/api/v1/transactions/${dealId}/intake-status`, { key: org.keys.read })).data;
    expect(after.forms[0]).toMatchObject({ status: 'submitted', submissionCount: 1, latestSubmissionId: subs[0].id });
  });

  it('issues a portal link to a read-only page; a wrong token gets the plain 404', async () => {
    const link = (await api.ok('GET', `/api/v1/transactions/${dealId}/portal-link`, { key: org.keys.read })).data;
    const page = await fetch(link.url);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('1207 Live Oak Ln');
    expect(html).toContain('Under Contract');
    expect(html).not.toContain('<form');
    expect((await fetch(link.url.replace(/.$/, (c: string) => (c === 'A' ? 'B' : 'A')))).status).toBe(404);
    expect((await api.call('GET', `/api/v1/transactions/${dealId}/portal-link`, { key: other.keys.read })).status).toBe(404);
  });

  it('revokes the portal and form links at once (the plain 404, nothing stored); links issued later work', async () => {
    const portalUrl = (await api.ok('GET', `/api/v1/transactions/${dealId}/portal-link`, { key: org.keys.read })).data.url;
    const [formLink] = (await api.ok('GET', `/api/v1/transactions/${dealId}/form-links`, { key: org.keys.read })).data;
    expect((await fetch(portalUrl)).status).toBe(200);
    const plain404 = await (await fetch(portalUrl.replace(/\/p\/.*/, `/p/${'A'.repeat(43)}`))).text();

    // Another organization cannot revoke (404), nor a key without the actions scope (403); the links still open.
    expect((await api.call('DELETE', `/api/v1/transactions/${dealId}/portal-link`, { key: other.keys.actions })).status).toBe(404);
    expect((await api.call('DELETE', `/api/v1/transactions/${dealId}/portal-link`, { key: org.keys.draft })).status).toBe(403);
    expect((await fetch(portalUrl)).status).toBe(200);

    const revoked = (await api.ok('DELETE', `/api/v1/transactions/${dealId}/portal-link`, { key: org.keys.actions })).data;
    expect(revoked).toMatchObject({ transactionId: dealId, kind: 'portal' });
    const gone = await fetch(portalUrl);
    expect(gone.status).toBe(404);
    expect(await gone.text()).toBe(plain404);
    expect((await api.ok('DELETE', `/api/v1/transactions/${dealId}/portal-link`, { key: org.keys.actions })).data.kind).toBe('portal');
    const fresh = (await api.ok('GET', `/api/v1/transactions/${dealId}/portal-link`, { key: org.keys.read })).data.url;
    expect(fresh).not.toBe(portalUrl);
    expect((await fetch(fresh)).status).toBe(200);
    // The form links are a kind of their own: the portal's revocation left them working.
    expect((await fetch(formLink.url)).status).toBe(200);

    const subsBefore = (await api.ok('GET', `/api/v1/form-submissions?transactionId=${dealId}`, { key: org.keys.read })).data.length;
    expect((await api.ok('DELETE', `/api/v1/transactions/${dealId}/form-links`, { key: org.keys.actions })).data).toMatchObject({ transactionId: dealId, kind: 'form' });
    expect((await fetch(formLink.url)).status).toBe(404);
    const posted = await postForm(formLink.url, { fullName: 'Late Client', email: 'late@example.com', financing: 'Cash' });
    expect(posted.status).toBe(404);
    expect(await posted.text()).toBe(plain404);
    expect((await api.ok('GET', `/api/v1/form-submissions?transactionId=${dealId}`, { key: org.keys.read })).data).toHaveLength(subsBefore);
    const [newForm] = (await api.ok('GET', `/api/v1/transactions/${dealId}/form-links`, { key: org.keys.read })).data;
    expect((await fetch(newForm.url)).status).toBe(200);
    expect((await fetch(fresh)).status).toBe(200);

    const activity = (await api.ok('GET', `/api/v1/transactions/${dealId}`, { key: org.keys.read })).data.recentActivity.map((a: any) => a.type);
    expect(activity).toEqual(expect.arrayContaining(['portal_links_revoked', 'form_links_revoked']));
  });

  it('notifies every member of a submission, with unread counts, and pushes to registered devices', async () => {
    const member = await addUser(org.orgId, { email: 'tc@example.test', firstName: 'Tess', lastName: 'Coord', role: 'coordinator' });
    const memberKey = (await createApiKey({ orgId: org.orgId, userId: member.userId, name: 'member', scopes: ['read', 'actions'] })).value;
    const device = await api.ok('POST', '/api/v1/devices/register', { key: memberKey, body: { installationId: 'ios-1', platform: 'iOS', pushToken: 'tok-123', appVersion: '2.4.0' } });
    expect(device.data).toMatchObject({ created: true, pushEnabled: true, platform: 'ios' });
    expect(JSON.stringify(device)).not.toContain('tok-123');
    const refreshed = await api.ok('POST', '/api/v1/devices/register', { key: memberKey, body: { installationId: 'ios-1', appVersion: '2.5.0', pushToken: 'tok-123' } });
    expect(refreshed.data).toMatchObject({ created: false, deviceId: device.data.deviceId, registeredAt: device.data.registeredAt, appVersion: '2.5.0' });
    expect((await api.call('POST', '/api/v1/devices/register', { key: memberKey, body: { platform: 'ios' } })).status).toBe(422);

    const before = (await api.ok('GET', '/api/v1/notifications/unread-count', { key: memberKey })).data.unreadCount;
    const links = await api.ok('GET', `/api/v1/transactions/${dealId}/form-links`, { key: org.keys.read });
    await postForm(links.data[1].url, { fullName: 'Maria Delgado', preferredChannel: 'Text', consentToText: 'yes' });
    await until('the notification', async () => (await api.ok('GET', '/api/v1/notifications/unread-count', { key: memberKey })).data.unreadCount > before, 10_000);
    const list = await api.ok('GET', '/api/v1/notifications?unreadOnly=true&limit=5', { key: memberKey });
    expect(list.data[0]).toMatchObject({ type: 'form.submission_received', title: 'Intake form submitted', transactionId: dealId, readAt: null });
    expect(list.unreadCount).toBeGreaterThan(before);
    const sink = path.join(h.rt.dataDir, 'push', 'outbound.jsonl');
    const pushes = await until('the push', () => (existsSync(sink) ? readFileSync(sink, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []).filter((p) => p.deviceId === device.data.deviceId).at(0), 10_000);
    expect(pushes).toMatchObject({ title: 'Intake form submitted', platform: 'ios' });
    expect((await api.ok('GET', '/api/v1/notifications', { key: other.keys.read })).data).toEqual([]);

    // A task assigned to the member later notifies them (an internal event, never a webhook); assigning it to the
    // same member again does not.
    const task = (await api.ok('POST', `/api/v1/transactions/${dealId}/tasks`, { key: org.keys.draft, body: { title: 'Order the survey', dueDate: '2026-12-05T00:00:00Z' } })).data;
    const assignedBefore = (await api.ok('GET', '/api/v1/notifications?limit=100', { key: memberKey })).data.filter((n: any) => n.type === 'task.assigned').length;
    await api.ok('POST', `/api/v1/tasks/${task.id}/assign`, { key: org.keys.draft, body: { assigneeUserId: member.userId } });
    await api.ok('POST', `/api/v1/tasks/${task.id}/assign`, { key: org.keys.draft, body: { assigneeUserId: member.userId } });
    const assigned = await until('the assignment notification', async () => (await api.ok('GET', '/api/v1/notifications?limit=100', { key: memberKey })).data.find((n: any) => n.type === 'task.assigned'), 10_000);
    expect(assigned).toMatchObject({ title: 'Task assigned to you', body: 'Order the survey (due 2026-12-05)', transactionId: dealId });
    await until('the push of it', () => (existsSync(sink) ? readFileSync(sink, 'utf8') : '').includes('Order the survey') || undefined, 10_000);
    expect((await api.ok('GET', '/api/v1/notifications?limit=100', { key: memberKey })).data.filter((n: any) => n.type === 'task.assigned')).toHaveLength(assignedBefore + 1);
  });
});

describe('branding, downloads and the portal (issue 25)', () => {
  const cspOf = (r: Response) => r.headers.get('content-security-policy') ?? '';

  it('settings: owner or admin only; the accent and logo are validated; null clears', async () => {
    const initial = (await api.ok('GET', '/api/v1/org/settings', { key: other.keys.read })).data;
    expect(initial).toMatchObject({ organizationId: other.orgId, name: 'Other Realty', displayName: null, logoUrl: null, accentColor: null, updatedAt: null });
    for (const [body, field] of [
      [{ accentColor: '#fff;}body{display:none' }, 'accentColor'],
      [{ accentColor: 'red' }, 'accentColor'],
      [{ logoUrl: 'http://cdn.example/logo.png' }, 'logoUrl'],
      [{ logoUrl: 'https://user:pw@cdn.example/logo.png' }, 'logoUrl'],
    ] as const) {
      const r = await api.call('PATCH', '/api/v1/org/settings', { key: other.keys.actions, body });
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(r.body.error.fields)).toEqual([field]);
    }
    expect((await api.call('PATCH', '/api/v1/org/settings', { key: other.keys.read, body: { accentColor: '#000' } })).status).toBe(403);
    const agent = await addUser(other.orgId, { email: 'agent@other.example', firstName: 'A', lastName: 'Gent', role: 'agent' });
    const agentKey = (await createApiKey({ orgId: other.orgId, userId: agent.userId, name: 'agent', scopes: ['read', 'actions'] })).value;
    const refused = await api.call('PATCH', '/api/v1/org/settings', { key: agentKey, body: { accentColor: '#000' } });
    expect([refused.status, refused.body.error.code]).toEqual([403, 'forbidden']);

    const set = (await api.ok('PATCH', '/api/v1/org/settings', { key: other.keys.actions, body: { displayName: ' Other Realty Group ', accentColor: '#ABC', logoUrl: 'https://cdn.other.example/logo.png' } })).data;
    expect(set).toMatchObject({ displayName: 'Other Realty Group', accentColor: '#aabbcc', logoUrl: 'https://cdn.other.example/logo.png' });
    const cleared = (await api.ok('PATCH', '/api/v1/org/settings', { key: other.keys.actions, body: { logoUrl: null } })).data;
    expect(cleared).toMatchObject({ displayName: 'Other Realty Group', accentColor: '#aabbcc', logoUrl: null });
    expect(Date.parse(cleared.updatedAt)).toBeGreaterThanOrEqual(Date.parse(set.updatedAt));
  });

  it('the pages show the branding and share one same-origin stylesheet carrying the accent', async () => {
    await api.ok('PATCH', '/api/v1/org/settings', { key: org.keys.actions, body: { displayName: 'Pages Realty Group', accentColor: '#0b6e4f', logoUrl: 'https://cdn.pages.example/brand/logo.png' } });
    const portal = await fetch((await api.ok('GET', `/api/v1/transactions/${dealId}/portal-link`, { key: org.keys.read })).data.url);
    const form = await fetch((await api.ok('GET', `/api/v1/transactions/${dealId}/form-links`, { key: org.keys.read })).data[0].url);
    const sheets = new Set<string>();
    for (const r of [portal, form]) {
      const html = await r.text();
      expect(html).toContain('<span>Pages Realty Group</span>');
      expect(html).toContain('<img src="https://cdn.pages.example/brand/logo.png"');
      expect(html).not.toMatch(/<style|style=/);
      expect(cspOf(r)).toContain("style-src 'self'; img-src https://cdn.pages.example;");
      sheets.add(/<link rel="stylesheet" href="([^"]+)">/.exec(html)![1]!.replace(/&amp;/g, '&'));
    }
    expect(sheets.size).toBe(1);
    const css = await fetch(new URL([...sheets][0]!, h.rt.baseUrl));
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(await css.text()).toMatch(/^:root\{--accent:#0b6e4f;--accent-ink:#ffffff;/);
    // The plain 404 names no organization.
    expect(await (await fetch(`${h.rt.baseUrl}/p/${'A'.repeat(43)}`)).text()).not.toContain('Pages Realty Group');
  });

  it('a download posts to the page: logged, then a 303 to an origin the page\'s form-action allows, serving the bytes', async () => {
    const pkg = (await api.ok('POST', '/api/v1/disclosure-packages', { key: org.keys.actions, body: { name: 'Download pack', transactionId: dealId, documentIds: [docA] } })).data;
    await api.ok('POST', `/api/v1/disclosure-packages/${pkg.id}/recipients`, { key: org.keys.actions, body: { email: 'dl@example.com', displayLabel: null, audienceTier: null, contactId: null, expiresAt: null } });
    const url = linkIn((await until('the share email', () => mailTo('dl@example.com')[0], 10_000)).raw.toString('utf8'))!;
    const pageRes = await fetch(url);
    const formAction = /form-action ([^;]+)/.exec(cspOf(pageRes))![1]!.split(' ');
    expect(await pageRes.text()).toContain(`name="download" value="${docA}"`);
    const res = await postForm(url, { download: docA });
    expect(res.status).toBe(303);
    const location = res.headers.get('location')!;
    expect(formAction).toEqual(["'self'", new URL(location).origin]);
    const file = new Uint8Array(await (await fetch(location)).arrayBuffer());
    expect(Buffer.from(file.subarray(0, 4)).toString()).toBe('%PDF');
    expect(file.length).toBe(pdfBytes('sellers-disclosure.pdf').length);
    const events = (await api.ok('GET', `/api/v1/disclosure-packages/${pkg.id}/activity`, { key: org.keys.read })).data.events;
    expect(events.filter((e: any) => e.action === 'downloaded')).toHaveLength(1);
    // A GET (a link scanner, a prefetch) never records one; a document outside the package is the plain 404.
    expect((await fetch(`${url}?download=${docA}`)).status).toBe(200);
    expect((await postForm(url, { download: docB })).status).toBe(404);
    expect((await api.ok('GET', `/api/v1/disclosure-packages/${pkg.id}/activity`, { key: org.keys.read })).data.events.filter((e: any) => e.action === 'downloaded')).toHaveLength(1);
  });

  it("the portal shows the agent of the deal's side and the past key dates", async () => {
    const deal = await newDeal(org, '88 Past Dates Dr');
    await linkContact(org, deal, { name: 'Dana Whitfield', role: "Buyer's Agent", email: 'dana@pagesrealty.example', phone: '+15125550143' });
    await linkContact(org, deal, { name: 'Lee Lister', role: 'Listing Agent', email: 'lee@else.example' });
    await api.ok('POST', `/api/v1/transactions/${deal}/key-dates`, { key: org.keys.actions, body: { keyDates: [{ keyDateType: 'InspectionDeadline', dateValue: '2026-01-05' }, { keyDateType: 'FinancingDeadline', dateValue: '2026-01-20' }] } });
    const html = await (await fetch((await api.ok('GET', `/api/v1/transactions/${deal}/portal-link`, { key: org.keys.read })).data.url)).text();
    expect(html).toContain('<h2>Your agent</h2>');
    expect(html).toContain('<strong>Dana Whitfield</strong>');
    expect(html).toContain('href="mailto:dana@pagesrealty.example"');
    expect(html).toContain('href="tel:+15125550143"');
    expect(html).not.toContain('Lee Lister');
    expect(html).toContain('<h2>Past key dates</h2>');
    expect(html.indexOf('Jan 20, 2026')).toBeLessThan(html.indexOf('Jan 5, 2026'));
    expect(html).not.toMatch(/No upcoming dates|Upcoming key dates/);
  });
});
