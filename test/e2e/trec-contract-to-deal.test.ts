/**
 * The product's main path end to end, as `npm run demo` walks it, over HTTP to the full local runtime: a filled
 * official TREC 20-18 (financedPurchase value set, text layer) is uploaded through a presigned URL to s3rver;
 * the ObjectCreated event starts the real extraction state machine (aws-local-stepfunctions, pdf.js OCR); the
 * job completes with every field as filled in, `extraction.completed` reaches a subscribed receiver, and
 * applying the job makes a deal whose closing date, option-period deadline and parties match the contract.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '#lib/local/runtime';
import { terminateLocalOcr } from '#ports/ocr-local';
import { addDays } from '#domain/calendar';
import { apiClient, newOrg, startWebhookReceiver, subscribe, until, type Api, type WebhookReceiver } from '../support/webhook-receiver.ts';
import { startTestRuntime, type TestRuntime } from '../support/runtime-harness.ts';
import { buildFixture, type TrecFixture } from '../fixtures/trec/build-fixtures.ts';
import { expectedFields } from '../fixtures/trec/value-sets.ts';

let runtime: TestRuntime;
let rt: LocalRuntime;
let api: Api;
let receiver: WebhookReceiver;
let org: Awaited<ReturnType<typeof newOrg>>;
let fx: TrecFixture;

beforeAll(async () => {
  runtime = await startTestRuntime('trec-e2e');
  rt = runtime.rt;
  api = apiClient(rt.baseUrl);
  receiver = await startWebhookReceiver();
  org = await newOrg('Contract Realty');
  const sub = await subscribe(api, org.keys.actions, `${receiver.url}/hook`, { events: ['extraction.completed', 'transaction.created'] });
  receiver.setSecret(sub.secret);
  fx = await buildFixture('financedPurchase');
}, 120_000);

afterAll(async () => {
  await receiver?.close();
  await runtime?.close();
  await terminateLocalOcr();
});

describe('filled TREC 20-18 → presigned upload → extraction → apply → deal', () => {
  let documentId: string;
  let job: any;
  let deal: any;

  it('uploads through the presigned URL and the job completes with every field as filled in', async () => {
    const url = await api.ok('POST', '/api/v1/documents/upload-url', {
      key: org.keys.actions,
      body: { fileName: 'trec-20-18-financed.pdf', contentType: 'application/pdf', sizeBytes: fx.textPdf.byteLength },
    });
    documentId = url.data.documentId;
    const put = await fetch(url.data.uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: fx.textPdf });
    expect(put.status).toBe(200);

    job = await until(
      'extraction job ends',
      async () => {
        const doc = (await api.ok('GET', `/api/v1/documents/${documentId}`, { key: org.keys.read })).data;
        if (!doc.latestJobId) return undefined;
        const j = (await api.ok('GET', `/api/v1/extractions/${doc.latestJobId}`, { key: org.keys.read })).data;
        return j.state === 'completed' || j.state === 'failed' ? j : undefined;
      },
      60_000,
      { intervalMs: 200 },
    );
    expect(job.state, JSON.stringify(job.error)).toBe('completed');
    expect(job.result).toMatchObject({ formType: 'TREC 20-18', pageCount: 11, requiresReview: false });
    const values = Object.fromEntries(Object.entries(job.result.fields).map(([k, f]: [string, any]) => [k, f.value]));
    expect(values).toEqual(expectedFields(fx.values));
  }, 90_000);

  it('emits extraction.completed with the job, document and status', async () => {
    expect(job?.jobId).toBeDefined();
    const seen = await receiver.waitFor((r) => [...r.received.values()].some((e) => e.eventType === 'extraction.completed'), 15_000);
    expect(seen).toBe(true);
    const event = [...receiver.received.values()].find((e) => e.eventType === 'extraction.completed')!;
    expect(event.body.data).toMatchObject({ jobId: job.jobId, documentId, transactionId: null, status: 'completed', requiresReview: false });
    expect(event.body.data.confidence).toBeGreaterThanOrEqual(0.9);
  });

  it('applies to a deal whose closing date, option-period deadline and parties match the contract', async () => {
    const v = fx.values;
    const res = await api.call('POST', '/api/v1/transactions', { key: org.keys.actions, body: { extractionJobId: job.jobId, transactionType: 'Purchase', side: 'Buyer' } });
    expect(res.status, res.text).toBe(200);
    deal = res.body.data;
    const dates = Object.fromEntries(deal.keyDates.map((k: any) => [k.keyDateType, k.dateValue]));
    expect(dates.ClosingDate).toBe(v.closingDate);
    expect(dates.InspectionDeadline).toBe(addDays(v.effectiveDate, v.optionPeriodDays!));
    const byRole = (role: string) => deal.contacts.filter((c: any) => c.role === role).map((c: any) => c.name);
    expect(byRole('Buyer')).toEqual(v.buyers);
    expect(byRole('Seller')).toEqual(v.sellers);
    expect(byRole("Buyer's Agent")).toEqual([v.brokers.other?.associate]);
    expect(byRole('Listing Agent')).toEqual([v.brokers.listing?.associate]);
    expect(byRole('Escrow Officer / Title')).toEqual([v.escrow.agent]);
    expect(deal.tasks.find((t: any) => t.linkedMilestoneName === 'InspectionDeadline')).toBeDefined();
    expect(deal.address).toBe(`${v.property.street}, ${v.property.city}, ${v.property.state} ${v.property.zip}`);
  });

  it('applying the same job again is a 422 naming extractionJobId and the deal (the operation is not (IK): no 409)', async () => {
    const again = await api.call('POST', '/api/v1/transactions', { key: org.keys.actions, body: { extractionJobId: job.jobId } });
    expect(again.status).toBe(422);
    expect(again.body.error.code).toBe('validation_error');
    expect(again.body.error.fields.extractionJobId).toContain(deal.id);
    expect(JSON.stringify(again.body.error)).toContain(deal.id);
  });
});
