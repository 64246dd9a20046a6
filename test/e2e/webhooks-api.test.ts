/**
 * Webhooks over HTTP (spec "Webhooks", "Webhook subscription", "Events"): the event catalog, create with the
 * secret shown once, masked reads, validation, scopes, tenant isolation, list filters, replace, rotate, delete.
 * LOCAL_MODE lets subscriptions target plain http on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi, type TestOrg } from '../support/http-client.ts';

const savedLocal = process.env.LOCAL_MODE;
process.env.LOCAL_MODE = 'true';

let t: TestApi;
let org: TestOrg;
let other: TestOrg;
beforeAll(async () => {
  t = await startTestApi();
  [org, other] = await Promise.all([t.newOrg('Hook Realty'), t.newOrg('Other Realty')]);
});
afterAll(async () => {
  await t.close();
  if (savedLocal === undefined) delete process.env.LOCAL_MODE;
  else process.env.LOCAL_MODE = savedLocal;
});

const HOOK_URL = 'http://127.0.0.1:9/hook';
const body = (over: Record<string, unknown> = {}) => ({ name: 'CRM sync', url: HOOK_URL, events: ['task.created'], ...over });
async function create(over: Record<string, unknown> = {}, who: TestOrg = org) {
  const r = await t.call('POST', '/api/v1/webhooks', { key: who.keys.actions, body: body(over) });
  expect(r.status, r.text).toBe(200);
  return r.body.data as { id: string; secret: string; secretPrefix: string; [k: string]: unknown };
}

const SPEC_EVENT_TYPES = [
  'contact.created', 'disclosure.recipient_viewed', 'document.deleted', 'document.uploaded', 'extraction.completed', 'form.submission_received', 'key_date.completed',
  'key_date.updated', 'task.completed', 'task.created', 'transaction.closed', 'transaction.created', 'transaction.status_changed', 'webhook.test',
];

describe('GET /webhook-events', () => {
  it('lists exactly the 14 spec event types, each with a description', async () => {
    const r = await t.call('GET', '/api/v1/webhook-events', { key: org.keys.read });
    expect(r.status).toBe(200);
    expect(r.body.data.map((e: { eventType: string }) => e.eventType).sort()).toEqual(SPEC_EVENT_TYPES);
    for (const e of r.body.data) expect(e.description).toMatch(/\w{3,}/);
  });

  it('needs a credential', async () => {
    expect((await t.call('GET', '/api/v1/webhook-events')).status).toBe(401);
  });
});

describe('POST /webhooks', () => {
  it('returns the full secret once; reads show only a masked prefix', async () => {
    const created = await create({ description: 'to the CRM', headers: { 'X-Tenant': 'acme' } });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({ name: 'CRM sync', url: HOOK_URL, events: ['task.created'], description: 'to the CRM', headers: { 'X-Tenant': 'acme' }, isActive: true, circuitBreakerEnabled: true });
    expect(created.secretPrefix).toBe(`${created.secret.slice(0, 10)}…`);

    const got = await t.call('GET', `/api/v1/webhooks/${created.id}`, { key: org.keys.read });
    expect(got.status).toBe(200);
    expect(got.body.data).toMatchObject({ id: created.id, secretPrefix: created.secretPrefix });
    expect(got.body.data).not.toHaveProperty('secret');
    expect(got.text).not.toContain(created.secret);

    const list = await t.call('GET', '/api/v1/webhooks', { key: org.keys.read });
    const listed = list.body.data.find((w: { id: string }) => w.id === created.id);
    expect(listed).toMatchObject({ secretPrefix: created.secretPrefix });
    expect(listed).not.toHaveProperty('secret');
    expect(list.text).not.toContain(created.secret);
  });

  it("accepts events ['*']", async () => {
    expect((await create({ events: ['*'] })).events).toEqual(['*']);
  });

  it('refuses an unknown event type with fields["events[i]"]', async () => {
    const r = await t.call('POST', '/api/v1/webhooks', { key: org.keys.actions, body: body({ events: ['task.created', 'task.exploded'] }) });
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('validation_error');
    expect(r.body.error.fields).toHaveProperty('events[1]');
    expect(r.body.error.fields).not.toHaveProperty('events[0]');
  });

  it('refuses plain http to a non-loopback host, and private https targets, with fields.url', async () => {
    for (const url of ['http://1.1.1.1/hook', 'https://10.0.0.1/hook', 'https://169.254.169.254/latest']) {
      const r = await t.call('POST', '/api/v1/webhooks', { key: org.keys.actions, body: body({ url }) });
      expect(r.status, url).toBe(422);
      expect(r.body.error.fields, url).toHaveProperty('url');
    }
  });

  it('refuses custom headers that cannot be sent over HTTP (bad name, CR/LF in a value) with fields["headers.<name>"]', async () => {
    const r = await t.call('POST', '/api/v1/webhooks', { key: org.keys.actions, body: body({ headers: { 'bad name': 'x', 'X-Note': 'a\r\nX-Injected: 1', 'X-Ok': 'fine' } }) });
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.error.fields).sort()).toEqual(['headers.X-Note', 'headers.bad name']);
  });

  it('refuses a missing name, url or events, and empty events', async () => {
    for (const [field, b] of [['name', { url: HOOK_URL, events: ['*'] }], ['url', { name: 'x', events: ['*'] }], ['events', { name: 'x', url: HOOK_URL }], ['events', body({ events: [] })]] as const) {
      const r = await t.call('POST', '/api/v1/webhooks', { key: org.keys.actions, body: b });
      expect(r.status, field).toBe(422);
      expect(Object.keys(r.body.error.fields ?? {}).some((k) => k.startsWith(field)), `${field}: ${r.text}`).toBe(true);
    }
  });

  it('needs the actions scope (read → 403, draft → 403)', async () => {
    for (const key of [org.keys.read, org.keys.draft]) {
      const r = await t.call('POST', '/api/v1/webhooks', { key, body: body() });
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe('insufficient_scope');
    }
  });
});

describe('tenant isolation', () => {
  it("another organization's webhook is 404 for every operation and is left unchanged", async () => {
    const theirs = await create({}, other);
    const base = `/api/v1/webhooks/${theirs.id}`;
    const calls: [string, string, string, unknown?][] = [
      ['GET', base, org.keys.read], ['PUT', base, org.keys.actions, body({ name: 'hijacked' })], ['DELETE', base, org.keys.actions],
      ['GET', `${base}/deliveries`, org.keys.read], ['POST', `${base}/regenerate-secret`, org.keys.actions], ['POST', `${base}/test`, org.keys.actions],
    ];
    for (const [method, path, key, b] of calls) {
      const r = await t.call(method, path, { key, body: b });
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.body.error.code).toBe('not_found');
    }
    const still = await t.call('GET', base, { key: other.keys.read });
    expect(still.body.data).toMatchObject({ name: 'CRM sync', secretPrefix: theirs.secretPrefix });
    const list = await t.call('GET', '/api/v1/webhooks?includeInactive=true', { key: org.keys.read });
    expect(list.body.data.map((w: { id: string }) => w.id)).not.toContain(theirs.id);
  });
});

describe('list, replace, rotate, delete', () => {
  it('lists active subscriptions by default; includeInactive=true adds inactive ones', async () => {
    const fresh = await t.newOrg('List Realty');
    const active = await create({ name: 'active' }, fresh);
    const inactive = await create({ name: 'to pause' }, fresh);
    const put = await t.call('PUT', `/api/v1/webhooks/${inactive.id}`, { key: fresh.keys.actions, body: body({ name: 'paused', isActive: false }) });
    expect(put.status).toBe(200);
    expect(put.body.data.isActive).toBe(false);

    const def = await t.call('GET', '/api/v1/webhooks', { key: fresh.keys.read });
    expect(def.body.data.map((w: { id: string }) => w.id)).toEqual([active.id]);
    const all = await t.call('GET', '/api/v1/webhooks?includeInactive=true', { key: fresh.keys.read });
    expect(all.body.data.map((w: { id: string }) => w.id).sort()).toEqual([active.id, inactive.id].sort());
    const no = await t.call('GET', '/api/v1/webhooks?includeInactive=false', { key: fresh.keys.read });
    expect(no.body.data).toHaveLength(1);
  });

  it('PUT replaces name, url and events and validates like create', async () => {
    const w = await create({ events: ['task.created'] });
    const r = await t.call('PUT', `/api/v1/webhooks/${w.id}`, { key: org.keys.actions, body: { name: 'Renamed', url: 'http://127.0.0.1:10/other', events: ['contact.created', 'task.completed'], timeoutSeconds: 5 } });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toMatchObject({ id: w.id, name: 'Renamed', url: 'http://127.0.0.1:10/other', events: ['contact.created', 'task.completed'], timeoutSeconds: 5 });
    expect(r.body.data).not.toHaveProperty('secret');
    expect((await t.call('GET', `/api/v1/webhooks/${w.id}`, { key: org.keys.read })).body.data.name).toBe('Renamed');

    const bad = await t.call('PUT', `/api/v1/webhooks/${w.id}`, { key: org.keys.actions, body: body({ url: 'http://8.8.8.8/', events: ['nope'] }) });
    expect(bad.status).toBe(422);
    expect(bad.body.error.fields).toHaveProperty('url');
    expect(bad.body.error.fields).toHaveProperty('events[0]');
    const tooSlow = await t.call('PUT', `/api/v1/webhooks/${w.id}`, { key: org.keys.actions, body: body({ timeoutSeconds: 31 }) });
    expect(tooSlow.status).toBe(422);
  });

  it('regenerate-secret returns a new full secret; later reads show its prefix', async () => {
    const w = await create();
    const r = await t.call('POST', `/api/v1/webhooks/${w.id}/regenerate-secret`, { key: org.keys.actions });
    expect(r.status).toBe(200);
    const secret = r.body.data.secret as string;
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(w.secret);
    const got = await t.call('GET', `/api/v1/webhooks/${w.id}`, { key: org.keys.read });
    expect(got.body.data.secretPrefix).toBe(`${secret.slice(0, 10)}…`);
    expect((await t.call('POST', `/api/v1/webhooks/${w.id}/regenerate-secret`, { key: org.keys.read })).status).toBe(403);
  });

  it('DELETE removes the subscription; then GET and a second DELETE are 404', async () => {
    const w = await create();
    const del = await t.call('DELETE', `/api/v1/webhooks/${w.id}`, { key: org.keys.actions });
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ deleted: true, id: w.id });
    expect((await t.call('GET', `/api/v1/webhooks/${w.id}`, { key: org.keys.read })).status).toBe(404);
    expect((await t.call('DELETE', `/api/v1/webhooks/${w.id}`, { key: org.keys.actions })).status).toBe(404);
  });

  it('a path id that is not a uuid is 422', async () => {
    const r = await t.call('GET', '/api/v1/webhooks/not-a-uuid', { key: org.keys.read });
    expect(r.status).toBe(422);
  });
});
