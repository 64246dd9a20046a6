/**
 * What `cdk deploy` ships, run from the synthesized assembly (bundles, environment, routes, state machine,
 * event-source mappings from the template): a deal and its status cascade; a filled TREC 20-18 uploaded through
 * the presigned URL, extracted by the state machine and applied; a webhook delivered after one failed attempt; the
 * communication-log report as PDF and ZIP, built by the report workers the reports API invokes (lib/report-builder.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unzipSync } from 'fflate';
import type { AssemblyRuntime } from '#lib/local/assembly/runtime';
import { apiClient, newDeal, newOrg, startWebhookReceiver, subscribe, until, type Api, type WebhookReceiver } from '../support/webhook-receiver.ts';
import { buildFixture, type TrecFixture } from '../fixtures/trec/build-fixtures.ts';
import { ASSEMBLY_START_TIMEOUT_MS, functionLogs, startTestAssembly } from '../support/assembly-harness.ts';
import { expectOnlyAllowedCalls } from '../support/assembly-iam.ts';

let rt: AssemblyRuntime;
let api: Api;
let org: Awaited<ReturnType<typeof newOrg>>;
let receiver: WebhookReceiver;
let fx: TrecFixture;

beforeAll(async () => {
  rt = await startTestAssembly('smoke-deals');
  api = apiClient(rt.baseUrl);
  org = await newOrg('Assembly Realty');
  receiver = await startWebhookReceiver();
  fx = await buildFixture('financedPurchase');
}, ASSEMBLY_START_TIMEOUT_MS);
afterAll(async () => {
  await receiver?.close();
  await rt?.stop();
});

describe('the synthesized assembly', () => {
  it('creates a deal and runs the Under Contract cascade', async () => {
    // The spec creates deals from extractions; the operator path makes a plain one (as the e2e suite does).
    const id = await newDeal(org, '12 Assembly Way');
    const changed = await api.call('PATCH', `/api/v1/transactions/${id}/status`, { key: org.keys.actions, body: { status: 'Under Contract' } });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.changed).toBe(true);
    expect(changed.body.cascade.tasksCreated.length).toBeGreaterThan(0);
    const deal = (await api.call('GET', `/api/v1/transactions/${id}`, { key: org.keys.read })).body.data;
    expect(deal.status).toBe('Under Contract');
    expect(deal.tasks.map((t: { title: string }) => t.title)).toEqual(expect.arrayContaining(changed.body.cascade.tasksCreated.map((t: { title: string }) => t.title)));
  });

  it('uploads a TREC 20-18 through the presigned URL, extracts it with the state machine and applies it', async () => {
    const url = await api.call('POST', '/api/v1/documents/upload-url', {
      key: org.keys.actions,
      body: { fileName: 'trec-20-18.pdf', contentType: 'application/pdf', sizeBytes: fx.textPdf.byteLength },
    });
    expect(url.status, url.text).toBe(200);
    const put = await fetch(url.body.data.uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: fx.textPdf });
    expect(put.status).toBe(200);
    const documentId = url.body.data.documentId;
    const job = await until(
      'the extraction job ends',
      async () => {
        const doc = (await api.call('GET', `/api/v1/documents/${documentId}`, { key: org.keys.read })).body.data;
        if (!doc.latestJobId) return undefined;
        const j = (await api.call('GET', `/api/v1/extractions/${doc.latestJobId}`, { key: org.keys.read })).body.data;
        return j.state === 'completed' || j.state === 'failed' ? j : undefined;
      },
      90_000,
      { intervalMs: 250, detail: () => functionLogs(rt, 3) },
    );
    expect(job.state, JSON.stringify(job.error)).toBe('completed');
    expect(job.result.formType).toBe('TREC 20-18');
    const applied = await api.call('POST', '/api/v1/transactions', { key: org.keys.actions, body: { extractionJobId: job.jobId, transactionType: 'Purchase', side: 'Buyer' } });
    expect(applied.status, applied.text).toBe(200);
    const dates = Object.fromEntries(applied.body.data.keyDates.map((k: { keyDateType: string; dateValue: string }) => [k.keyDateType, k.dateValue]));
    expect(dates.ClosingDate).toBe(fx.values.closingDate);
  }, 120_000);

  it('delivers a webhook after one failed attempt (the delivery queue, its event-source mapping and retry)', async () => {
    let first = true;
    receiver.behaviour = () => (first ? ((first = false), 'fail') : 'ok');
    const sub = await subscribe(api, org.keys.actions, `${receiver.url}/hook`, { events: ['task.created'] });
    receiver.setSecret(sub.secret);
    const dealId = await newDeal(org, '14 Retry Rd');
    const task = await api.call('POST', `/api/v1/transactions/${dealId}/tasks`, { key: org.keys.actions, body: { title: 'Order the survey' } });
    expect(task.status, task.text).toBe(200);
    const event = await until('task.created delivered', () => [...receiver.received.values()].find((e) => e.eventType === 'task.created'), 30_000, { detail: () => functionLogs(rt, 3) });
    expect(event.attempts).toBe(2);
    expect(event.body.data).toMatchObject({ transactionId: dealId, title: 'Order the survey' });
  }, 60_000);
  it('builds the communication-log report as PDF and ZIP in the report workers, behind a presigned link', async () => {
    const dealId = await newDeal(org, '16 Report Row');
    const report = (format: string) => api.call('GET', `/api/v1/transactions/${dealId}/reports/communication-log?format=${format}`, { key: org.keys.read });
    const pdf = await report('pdf');
    expect(pdf.status, pdf.text).toBe(200);
    expect(pdf.body.data).toMatchObject({ format: 'pdf', contentType: 'application/pdf', messageCount: 0 });
    const pdfBytes = new Uint8Array(await (await fetch(pdf.body.data.url)).arrayBuffer());
    expect(new TextDecoder().decode(pdfBytes.subarray(0, 5))).toBe('%PDF-');
    expect(pdfBytes.length).toBe(pdf.body.data.sizeBytes);
    const zip = await report('zip');
    expect(zip.status, zip.text).toBe(200);
    const files = unzipSync(new Uint8Array(await (await fetch(zip.body.data.url)).arrayBuffer()));
    expect(Object.keys(files).sort()).toEqual(['communication-log.json', 'communication-log.pdf']);
    const invoked = new Set(rt.calls.filter((c) => c.action === 'lambda:InvokeFunction' && c.callerKind === 'function').map((c) => c.resource.split(':')[6]));
    expect(invoked.size).toBe(2);
  }, 60_000);

  it('made only AWS calls the deployed IAM allows (roles, key, bucket and queue policies, evaluated offline)', () => expectOnlyAllowedCalls(rt, 'smoke-deals', 6), 60_000);
});
