/**
 * The local messaging CLIs and the operator CLI's workspace commands, spawned as a user runs them, against a started
 * local runtime (its data directory is the CLIs' `DATA_DIR`, and it is recorded in `local-runtime.json` as `npm start`
 * records itself): `npm run sms -- reply` threads a text and STOP opts the number out (the confirmation lands in the
 * SMS sink), `npm run sms -- list` and `npm run outbox` list what was sent and received, `npm run admin --
 * mail-account add|list` connects mailboxes and `npm run admin -- org set-timezone` sets the reminders' time zone.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listCommunications } from '#db/communications';
import { findSmsOptOut } from '#db/consent';
import { DEFAULT_ORG_TIMEZONE, organizationTimezone } from '#db/orgs';
import { OPT_OUT_REPLY } from '#domain/sms-keywords';
import { writeRuntimeFile } from '#lib/local/runtime-file';
import type { OutboxEntry } from '#lib/local/outbox';
import { queueDealEmail } from '#use-cases/messaging/send-email';
import { queueDealSms } from '#use-cases/messaging/send-sms';
import { runCli } from '../support/cli.ts';
import { settled } from './messaging-fixtures.ts';
import { startTestRuntime, type TestRuntime } from '../support/runtime-harness.ts';
import { newDeal, newOrg } from '../support/webhook-receiver.ts';

const PHONE = '+15125550143';

let t: TestRuntime;
let org: Awaited<ReturnType<typeof newOrg>>;
let dealId: string;

/** Runs `bin/<script>.ts` as `npm run` would, with only the data directory in its environment. */
const cli = (script: string, args: string[]) => runCli(script, args, t.rt.dataDir);

beforeAll(async () => {
  t = await startTestRuntime('cli');
  writeRuntimeFile(t.rt.dataDir, { endpoint: t.rt.dynamoEndpoint, tableName: process.env.TABLE_NAME!, pid: process.pid, baseUrl: t.rt.baseUrl });
  org = await newOrg('CLI Realty');
  dealId = await newDeal(org, '9 Cli Ct');
  const actor = { orgId: org.orgId, userId: org.ownerUserId };
  const email = await queueDealEmail(actor, { transactionId: dealId, kind: 'email', to: [{ address: 'buyer@example.net', name: 'Bea Buyer', contactId: null }], subject: 'Option period ends Friday', text: 'Hi Bea' }, new Date());
  const { message: text } = await queueDealSms(actor, { transactionId: dealId, phone: PHONE, phoneField: 'toPhoneNumber', body: 'Docs are ready', kind: 'sms', forceOverride: false, contactId: null, name: 'Bea' }, new Date());
  // Queued: the runtime's send worker sends them.
  await Promise.all([settled(org.orgId, email.id), settled(org.orgId, text.id)]);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('npm run sms', () => {
  it('reply: threads the text into the conversation that texted the number', async () => {
    const r = await cli('sms', ['reply', '--from', PHONE, 'Got it, thanks']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ outcome: 'threaded', from: PHONE, to: '+15550100000', body: 'Got it, thanks' });
    const thread = await listCommunications(org.orgId, dealId);
    expect(thread.filter((m) => m.channel === 'sms').map((m) => [m.direction, m.bodyText])).toEqual([
      ['outbound', 'Docs are ready'],
      ['inbound', 'Got it, thanks'],
    ]);
  }, 120_000);

  it('reply STOP (number in any common format): opts the number out; the confirmation lands in the sink', async () => {
    const r = await cli('sms', ['reply', '--from', '(512) 555-0143', 'STOP']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ outcome: 'opted_out', from: PHONE });
    expect(await findSmsOptOut(PHONE)).toMatchObject({ phone: PHONE, keyword: 'STOP' });

    const list = await cli('sms', ['list', '--json']);
    expect(list.code, list.stderr).toBe(0);
    const texts = JSON.parse(list.stdout) as OutboxEntry[];
    expect(texts.map((x) => [x.direction, x.body, x.outcome ?? null])).toEqual([
      ['outbound', 'Docs are ready', null],
      ['inbound', 'Got it, thanks', 'threaded'],
      ['inbound', 'STOP', 'opted_out'],
      ['outbound', OPT_OUT_REPLY, null],
    ]);
    expect(texts.every((x, i) => i === 0 || texts[i - 1].at <= x.at)).toBe(true);
  }, 120_000);

  it('refuses a sender that is not a phone number, with the usage', async () => {
    const r = await cli('sms', ['reply', '--from', 'nobody', 'hi']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--from must be a phone number/);
    expect(r.stderr).toMatch(/usage:/);
  }, 120_000);
});

describe('npm run outbox', () => {
  it('lists the email (from, to, subject, .eml file) and the texts, newest last; as JSON and as lines', async () => {
    const json = await cli('outbox', ['--json']);
    expect(json.code, json.stderr).toBe(0);
    const entries = JSON.parse(json.stdout) as OutboxEntry[];
    const email = entries.find((e) => e.channel === 'email');
    expect(email).toMatchObject({ direction: 'outbound', to: ['buyer@example.net'], subject: 'Option period ends Friday' });
    expect(email!.from).toContain('deals@tcs.localhost');
    expect(email!.file).toMatch(/\.eml$/);
    expect(existsSync(email!.file!)).toBe(true);
    expect(entries.filter((e) => e.channel === 'sms')).toHaveLength(4);
    expect(entries.every((x, i) => i === 0 || entries[i - 1].at <= x.at)).toBe(true);

    const text = await cli('outbox', []);
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stdout.trim().split('\n');
    expect(lines).toHaveLength(5);
    expect(lines.find((l) => l.includes('email'))).toMatch(/deals@tcs\.localhost.* → buyer@example\.net {2}"Option period ends Friday" {2}.*\.eml$/);
    expect(lines.at(-1)).toContain(OPT_OUT_REPLY);
  }, 120_000);
});

describe('npm run admin -- mail-account', () => {
  it('refuses an SMTP password secret outside tcs/mail/', async () => {
    const r = await cli('admin', ['mail-account', 'add', '--org', org.orgId, '--user', org.ownerUserId, '--kind', 'smtp', '--from', 'dana@hillcountry.example', '--smtp-host', 'smtp.hillcountry.example', '--smtp-user', 'dana', '--secret', 'prod/db-password']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--secret must name a Secrets Manager secret under tcs\/mail\//);
  }, 120_000);

  it('adds an SMTP mailbox (first: the default) and an SES one made default, and lists them', async () => {
    const smtp = await cli('admin', ['mail-account', 'add', '--org', org.orgId, '--user', org.ownerUserId, '--kind', 'smtp', '--from', 'dana@hillcountry.example', '--name', 'Dana Agent', '--smtp-host', 'smtp.hillcountry.example', '--smtp-user', 'dana', '--secret', 'tcs/mail/dana']);
    expect(smtp.code, smtp.stderr).toBe(0);
    const first = JSON.parse(smtp.stdout);
    expect(first).toMatchObject({ kind: 'smtp', fromAddress: 'dana@hillcountry.example', displayName: 'Dana Agent', isDefault: true, smtp: { host: 'smtp.hillcountry.example', port: 587, secure: false, username: 'dana', secretRef: 'tcs/mail/dana' } });

    const ses = await cli('admin', ['mail-account', 'add', '--org', org.orgId, '--user', org.ownerUserId, '--kind', 'ses', '--from', 'deals@hillcountry.example', '--default']);
    expect(ses.code, ses.stderr).toBe(0);
    const second = JSON.parse(ses.stdout);
    expect(second).toMatchObject({ kind: 'ses', smtp: null, isDefault: true });

    const list = await cli('admin', ['mail-account', 'list', '--org', org.orgId]);
    expect(list.code, list.stderr).toBe(0);
    const accounts = JSON.parse(list.stdout) as { id: string; isDefault: boolean }[];
    expect(accounts.map((a) => [a.id, a.isDefault])).toEqual([
      [second.id, true],
      [first.id, false],
    ]);
  }, 180_000);
});

describe('npm run admin -- org set-timezone', () => {
  it('refuses a zone that is not IANA and an unknown organization; sets a known one, canonical case, for later reminders', async () => {
    const bad = await cli('admin', ['org', 'set-timezone', '--org', org.orgId, '--timezone', 'Mountain Time']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--timezone must be an IANA time zone/);
    const missing = await cli('admin', ['org', 'set-timezone', '--org', '00000000-0000-4000-8000-000000000000', '--timezone', 'America/Denver']);
    expect(missing.code).toBe(2);
    expect(await organizationTimezone(org.orgId)).toBe(DEFAULT_ORG_TIMEZONE);

    const set = await cli('admin', ['org', 'set-timezone', '--org', org.orgId, '--timezone', 'america/denver']);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ orgId: org.orgId, timezone: 'America/Denver' });
    expect(await organizationTimezone(org.orgId)).toBe('America/Denver');
  }, 120_000);
});
