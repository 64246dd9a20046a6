/**
 * `npm run mail -- reply` (bin/mail.ts) answers an email the service sent as its recipient's mail client would:
 * spawned as a user runs it, against a started local runtime recorded in `local-runtime.json` as `npm start`
 * records itself (with its SMTP server's URL). The reply reaches the deal's reply address through the local SMTP
 * server and the inbound-email handler threads it to the deal, as a reply to the message it answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeRuntimeFile } from '#lib/local/runtime-file';
import { runCli } from '../support/cli.ts';
import { startTestRuntime, type TestRuntime } from '../support/runtime-harness.ts';
import { apiClient, newDeal, newOrg } from '../support/webhook-receiver.ts';

let t: TestRuntime;
let org: Awaited<ReturnType<typeof newOrg>>;
let dealId: string;

const cli = (args: string[]) => runCli('mail', args, t.rt.dataDir);

beforeAll(async () => {
  t = await startTestRuntime('mail-cli');
  writeRuntimeFile(t.rt.dataDir, { endpoint: t.rt.dynamoEndpoint, tableName: process.env.TABLE_NAME!, pid: process.pid, baseUrl: t.rt.baseUrl, smtpUrl: t.rt.messaging.smtp.url });
  org = await newOrg('Mail CLI Realty');
  dealId = await newDeal(org, '7 Reply Rd');
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('npm run mail -- reply', () => {
  it('answers the email named by its subject; the reply threads to the deal as an answer to it', async () => {
    const api = apiClient(t.rt.baseUrl);
    const sent = await api.call('POST', `/api/v1/transactions/${dealId}/messages`, { key: org.keys.actions, body: { toEmail: 'pat@example.com', subject: 'Appraisal scheduled', body: 'Hi Pat, the appraiser comes Monday.' } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const r = await cli(['reply', 'appraisal scheduled', 'Monday works.']);
    expect(r.code, r.stderr).toBe(0);
    const reply = JSON.parse(r.stdout);
    expect(reply).toMatchObject({ from: 'pat@example.com', subject: 'Re: Appraisal scheduled', inReplyTo: sent.body.data.emailMessageId });
    expect(reply.to).toMatch(/^reply\+[a-z0-9]+@reply\.tcs\.localhost$/);
    expect(reply.response).toMatch(/^250/);
    let inbound: any;
    for (let i = 0; i < 60 && !inbound; i++) {
      const thread = await api.call('GET', `/api/v1/transactions/${dealId}/communications`, { key: org.keys.read });
      inbound = thread.body.data.find((m: any) => m.direction === 'inbound' && m.channel === 'email');
      if (!inbound) await new Promise((res) => setTimeout(res, 250));
    }
    // Threaded as the answer to the sent message (the service resolves the In-Reply-To header to the message's id).
    expect(inbound).toMatchObject({ kind: 'reply', inReplyTo: sent.body.data.id });
    expect(inbound.bodyText.trim()).toBe('Monday works.');
  }, 120_000);

  it('exits 1 naming what is missing: no matching email, no text', async () => {
    const none = await cli(['reply', 'no such subject', 'Hello', '--wait', '0']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no stored email matches "no such subject"');
    const noText = await cli(['reply', 'appraisal scheduled']);
    expect(noText.code).toBe(1);
    expect(noText.stderr).toMatch(/the text of the reply is required[\s\S]*usage:/);
  }, 60_000);
});
