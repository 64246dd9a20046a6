/**
 * The webhook delivery worker through Powertools' Batch utility, on DynamoDB Local with a real receiver and a
 * mocked SQS: in a mixed batch only the records that failed are reported in `batchItemFailures` (by message id),
 * the others are deleted by the event source; the invocation's outcomes are counted in one EMF document and an
 * unexpected error is logged with its message id.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { ChangeMessageVisibilityCommand, SQSClient } from '@aws-sdk/client-sqs';
import { createWebhook } from '#db/webhooks';
import { resetSqsClient } from '#ports/sqs';
import { handler } from '#functions/webhook-delivery/handler';
import { localContext } from '#lib/local/api-event';
import { useTestTable } from '../support/test-table.ts';
import { captureTelemetry, metricNames, type Telemetry } from '../support/telemetry.ts';
import { startReceiver, status, type Receiver } from '../unit/webhook-receiver.ts';
import { deliveryMessage, newOrgId, QUEUE_URL, sqsRecord } from './webhook-fixtures.ts';

vi.hoisted(() => Object.assign(process.env, { POWERTOOLS_LOG_LEVEL: 'INFO', POWERTOOLS_METRICS_DISABLED: 'false' }));

const sqsMock = mockClient(SQSClient);
const saved = { LOCAL_MODE: process.env.LOCAL_MODE, WEBHOOK_QUEUE_URL: process.env.WEBHOOK_QUEUE_URL, WEBHOOK_RETRY_SCHEDULE: process.env.WEBHOOK_RETRY_SCHEDULE };
let up: Receiver;
let down: Receiver;
let orgId: string;
let t: Telemetry;

beforeAll(async () => {
  await useTestTable();
  // LOCAL_MODE lets the worker POST to receivers on 127.0.0.1.
  Object.assign(process.env, { LOCAL_MODE: 'true', WEBHOOK_QUEUE_URL: QUEUE_URL });
  delete process.env.WEBHOOK_RETRY_SCHEDULE;
  resetSqsClient();
  [up, down] = await Promise.all([startReceiver(status(200)), startReceiver(status(503))]);
  orgId = await newOrgId();
});
afterAll(async () => {
  await Promise.all([up.close(), down.close()]);
  for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
  sqsMock.restore();
});
beforeEach(() => {
  sqsMock.reset();
  sqsMock.on(ChangeMessageVisibilityCommand).resolves({});
  t = captureTelemetry();
});
afterEach(() => t.restore());

const subscribe = (url: string) => createWebhook(orgId, { name: 'CRM', url: `${url}/hook`, events: ['*'] }, new Date());

describe('webhook delivery batch', () => {
  it('reports only the failed records, by message id, and counts each outcome', async () => {
    const [good, bad] = await Promise.all([subscribe(up.url), subscribe(down.url)]);
    const ok = sqsRecord(deliveryMessage(orgId, good.id));
    const failing = sqsRecord(deliveryMessage(orgId, bad.id));
    const broken = { ...sqsRecord(deliveryMessage(orgId, good.id)), body: '{not json' };

    const out = await handler({ Records: [ok, failing, broken] }, localContext('webhook-delivery'));

    expect(out.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual([failing.messageId, broken.messageId].sort());
    expect(up.received).toHaveLength(1);
    expect(down.received).toHaveLength(1);
    // The failed attempt asked SQS to redeliver it after the first retry delay.
    expect(sqsMock.commandCalls(ChangeMessageVisibilityCommand).map((c) => c.args[0].input.ReceiptHandle)).toEqual([failing.receiptHandle]);

    const [doc] = t.metrics();
    expect(t.metrics()).toHaveLength(1);
    expect(doc).toMatchObject({ service: 'transaction-coordination', DeliveriesSucceeded: 1, DeliveriesFailed: 1, DeliveryErrors: 1 });
    expect(metricNames(doc).sort()).toEqual(['DeliveriesFailed', 'DeliveriesSucceeded', 'DeliveryErrors']);
    const errors = t.logs().filter((l) => l.level === 'ERROR');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ message: 'delivery failed', messageId: broken.messageId, error: { name: 'SyntaxError' } });
  });

  it('a batch where every record succeeds reports no failure', async () => {
    const good = await subscribe(up.url);
    const out = await handler({ Records: [sqsRecord(deliveryMessage(orgId, good.id)), sqsRecord(deliveryMessage(orgId, good.id))] });
    expect(out).toEqual({ batchItemFailures: [] });
    // EMF keeps one value per record; CloudWatch sums them.
    expect(t.metrics()[0]).toMatchObject({ DeliveriesSucceeded: [1, 1] });
  });

  it('a batch where every record fails still answers with batchItemFailures (no thrown full-batch error)', async () => {
    const bad = await subscribe(down.url);
    const records = [sqsRecord(deliveryMessage(orgId, bad.id)), sqsRecord(deliveryMessage(orgId, bad.id))];
    const out = await handler({ Records: records });
    expect(out.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(records.map((r) => r.messageId).sort());
  });
});
