/**
 * What `cdk deploy` ships, run from the synthesized assembly: an email sent through SES (to the local SMTP
 * server) and a reply received by the SES receipt rule into its bucket and threaded by the inbound-email worker; an
 * HTML-only role email and a text, whose request path loads the messaging group's lazy chunks (html-to-text, the
 * textable-number parser: lib/bundling/lazy-modules.ts) through the asset's package.json as Lambda would; an
 * intake form posted to its public page; an OAuth 2.1 authorization-code flow whose tokens are signed by KMS; a
 * partner provisioning call with an `rsk_` key; a workspace export, its schedule created by the outbox relay (webhook
 * fan-out) and built by the Scheduler's target, downloaded through its presigned link.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import nodemailer from 'nodemailer';
import { simpleParser } from 'mailparser';
import { unzipSync, strFromU8 } from 'fflate';
import type { AssemblyRuntime } from '#lib/local/assembly/runtime';
import { storedMail } from '#lib/local/smtp-sink';
import { createPartner, createPartnerKey } from '#db/partners';
import { splitName } from '#db/contacts';
import { transactWrite } from '#db/transact';
import { contactCreateItems } from '#use-cases/contacts';
import { randomUUID } from 'node:crypto';
import { apiClient, newDeal, newOrg, until, type Api } from '../support/webhook-receiver.ts';
import { authorizationCodeToken } from '../support/oauth-client.ts';
import { ASSEMBLY_START_TIMEOUT_MS, functionLogs, startTestAssembly } from '../support/assembly-harness.ts';
import { expectOnlyAllowedCalls } from '../support/assembly-iam.ts';

let rt: AssemblyRuntime;
let api: Api;
let org: Awaited<ReturnType<typeof newOrg>>;
let ownerEmail: string;
let dealId: string;

const header = (raw: Buffer, name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(raw.toString('utf8'))?.[1]?.trim();
const mailTo = (address: string) => storedMail(rt.smtp.directory).filter((m) => m.to.includes(address));

beforeAll(async () => {
  rt = await startTestAssembly('smoke-msg');
  api = apiClient(rt.baseUrl);
  org = await newOrg('Assembly Messaging Realty');
  ownerEmail = (await api.call('GET', '/api/v1/org/users', { key: org.keys.read })).body.data.find((u: { role: string }) => u.role === 'owner').email;
  dealId = await newDeal(org, '20 Reply Row');
}, ASSEMBLY_START_TIMEOUT_MS);
afterAll(() => rt?.stop());

describe('the synthesized assembly', () => {
  it('sends an email through SES and threads the reply the receipt rule stores', async () => {
    const sent = await api.call('POST', `/api/v1/transactions/${dealId}/messages`, { key: org.keys.actions, body: { toEmail: 'buyer@example.com', subject: 'Option period ends Friday', body: 'The option period ends Friday at 5 pm.' } });
    expect(sent.status, `${sent.text}\n${functionLogs(rt)}`).toBe(200);
    const eml = await until('the email at the SMTP server', () => mailTo('buyer@example.com').find((m) => header(m.raw, 'Message-ID') === sent.body.data.emailMessageId), 15_000);
    const replyTo = header(eml.raw, 'Reply-To')!;
    expect(replyTo).toMatch(/@reply\.tcs-smoke\.example$/);

    const smtp = nodemailer.createTransport({ url: rt.smtp.url, ignoreTLS: true });
    await smtp.sendMail({ from: 'buyer@example.com', to: replyTo, subject: 'Re: Option period ends Friday', text: 'Thanks, noted.', inReplyTo: sent.body.data.emailMessageId });
    const reply = await until(
      'the reply in the thread',
      async () => ((await api.call('GET', `/api/v1/transactions/${dealId}/communications`, { key: org.keys.read })).body.data as any[]).find((m) => m.direction === 'inbound'),
      30_000,
      { detail: () => functionLogs(rt, 3) },
    );
    expect(reply).toMatchObject({ channel: 'email', status: 'received', inReplyTo: sent.body.data.id });
    expect(reply.bodyText.trim()).toBe('Thanks, noted.');
  }, 60_000);

  it('loads the lazy chunks: an HTML-only client update gets its text part, a text is queued to the number in E.164, a toll-free one is 422', async () => {
    const now = new Date().toISOString();
    const buyerId = randomUUID();
    const buyer = { id: buyerId, type: 'person' as const, ...splitName('Maria Delgado'), name: 'Maria Delgado', email: 'maria@example.com', phone: '(512) 555-0143', company: null, createdAt: now, updatedAt: now };
    await transactWrite(contactCreateItems({ orgId: org.orgId, userId: org.ownerUserId }, buyer, { transactionId: dealId, role: 'Buyer' }));

    const update = await api.call('POST', `/api/v1/transactions/${dealId}/emails/client-update`, {
      key: org.keys.actions,
      body: { audience: 'buyer', bodyHtml: '<p>The appraisal came in <b>at value</b>.</p><ul><li>Next: final loan approval</li></ul>', focus: 'appraisal', recipientContactId: buyerId, subject: 'Appraisal done' },
    });
    expect(update.status, `${update.text}\n${functionLogs(rt)}`).toBe(200);
    expect(update.body.data.bodyText).toBe('The appraisal came in at value.\n\n * Next: final loan approval');
    const eml = await until('the client update at the SMTP server', () => mailTo('maria@example.com').find((m) => header(m.raw, 'Message-ID') === update.body.data.emailMessageId), 15_000);
    expect((await simpleParser(eml.raw)).text?.trim()).toBe('The appraisal came in at value.\n\n * Next: final loan approval');

    const text = await api.call('POST', `/api/v1/transactions/${dealId}/conversations`, { key: org.keys.actions, body: { contactId: buyerId, toPhoneNumber: null, messageContent: 'The appraisal is in.', forceOverride: false } });
    expect(text.status, `${text.text}\n${functionLogs(rt)}`).toBe(200);
    expect(text.body.data.conversation.phoneNumber).toBe('+15125550143');
    const tollFree = await api.call('POST', `/api/v1/transactions/${dealId}/conversations`, { key: org.keys.actions, body: { contactId: null, toPhoneNumber: '+1 800 555 0199', messageContent: 'Hello', forceOverride: false } });
    expect(tollFree.status, tollFree.text).toBe(422);
    expect(tollFree.body.error.fields).toEqual({ toPhoneNumber: 'is not a number that can receive texts (E.164, or a US number)' });
    const reachable = await api.call('GET', `/api/v1/transactions/${dealId}/recipients?channel=sms`, { key: org.keys.read });
    expect(reachable.body.data.map((r: { contactId: string; sms: { address: string } }) => [r.contactId, r.sms.address])).toEqual([[buyerId, '+15125550143']]);
  }, 60_000);

  it('answers GET / with the landing links (no MCP endpoint deployed yet) and serves the reference page', async () => {
    const landing = (await (await fetch(`${rt.baseUrl}/`)).json()) as { links: Record<string, string> };
    expect(landing.links).toEqual({ docs: '/docs', openapi: '/openapi.json', health: '/api/v1/health' });
    expect((await fetch(`${rt.baseUrl}${landing.links.docs}`)).status).toBe(200);
  });

  it('stores an intake form posted to its public page', async () => {
    const links = await api.call('GET', `/api/v1/transactions/${dealId}/form-links`, { key: org.keys.read });
    expect(links.status, links.text).toBe(200);
    // Links name the request's own origin over https, as API Gateway serves it; the local API speaks plain http.
    const url = (links.body.data[0].url as string).replace(/^https:/, 'http:');
    expect(url, 'the public page is on the API').toMatch(new RegExp(`^${rt.baseUrl}/f/`));
    const posted = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ fullName: 'Maria Delgado', email: 'maria@example.com', financing: 'Cash' }).toString() });
    expect(posted.status).toBe(200);
    const subs = await api.call('GET', `/api/v1/form-submissions?transactionId=${dealId}`, { key: org.keys.read });
    expect(subs.body.data).toHaveLength(1);
  });

  it('runs the OAuth authorization-code flow; the KMS-signed access token calls the API', async () => {
    const token = await authorizationCodeToken({ baseUrl: rt.baseUrl, mailDir: rt.smtp.directory, email: ownerEmail, orgId: org.orgId, scope: 'read' });
    const deal = await fetch(`${rt.baseUrl}/api/v1/transactions/${dealId}`, { headers: { authorization: `Bearer ${token}` } });
    expect(deal.status).toBe(200);
    expect(rt.calls.some((c) => c.action === 'kms:Sign')).toBe(true);
  }, 60_000);

  it('provisions an organization with a partner key', async () => {
    const partner = await createPartner('Assembly Resellers');
    const key = (await createPartnerKey(partner.partnerId, 'provisioning', ['read', 'actions'])).value;
    const created = await fetch(`${rt.baseUrl}/api/v1/orgs`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Partner Closings', owner: { email: 'ava@example.com', firstName: 'Ava', lastName: 'Nguyen' } }) });
    const body = (await created.json()) as { data: unknown };
    expect(created.status, JSON.stringify(body)).toBe(200);
    expect(body.data).toMatchObject({ name: 'Partner Closings' });
    // The invitation is queued with the organization; the send worker (its stream mapping's filter) emails it.
    await until('the invitation at the SMTP server', () => mailTo('ava@example.com')[0], 15_000);
    expect(mailTo('ava@example.com')).toHaveLength(1);
  });

  it('builds a workspace export with the Scheduler target and serves it through the emailed link', async () => {
    const requested = await api.call('POST', '/api/v1/account/export/request', { key: org.keys.actions });
    expect(requested.status, requested.text).toBe(200);
    // Requested through the outbox: the relay (webhook fan-out's stream mapping, as deployed) creates the schedule.
    const name = `export-${requested.body.data.exportId}`;
    await until('the outbox relay created the export schedule', () => rt.scheduler.pending().some((key) => key.endsWith(`/${name}`)), 15_000);
    await rt.scheduler.tick(Date.now() + 10 * 60_000);
    const latest = await api.call('GET', '/api/v1/account/export/latest', { key: org.keys.read });
    expect(latest.body.data, functionLogs(rt, 3)).toMatchObject({ state: 'completed' });
    const mail = await simpleParser(mailTo(ownerEmail).at(-1)!.raw);
    const link = /(http\S+exports\/\S+)/.exec(mail.text ?? '')?.[1];
    expect(link).toBeDefined();
    const res = await fetch(link!);
    expect(res.status).toBe(200);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    expect(JSON.parse(strFromU8(files['manifest.json']!))).toMatchObject({ orgId: org.orgId });
    expect(JSON.parse(strFromU8(files['records/Transaction.json']!)).map((d: { id: string }) => d.id)).toContain(dealId);
  }, 60_000);
  it('made only AWS calls the deployed IAM allows (roles, key, bucket and queue policies, evaluated offline)', () => expectOnlyAllowedCalls(rt, 'smoke-messaging', 6), 60_000);
});
