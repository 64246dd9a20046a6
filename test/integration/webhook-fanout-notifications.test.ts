/**
 * Fan-out's two steps fail apart (shared/use-cases/fan-out.ts), against DynamoDB Local with SQS and SNS mocked: a
 * failed push is counted (`NotificationFailures`) and never makes the stream retry the record, so the event's
 * webhook delivery is enqueued once; a failed delivery is retried while the notification is still stored; an
 * internal event is dropped before any subscription is read.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-vitest/extend';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { CreatePlatformEndpointCommand, PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { createOrganization } from '#db/orgs';
import { createWebhook } from '#db/webhooks';
import { listNotifications, putDevice } from '#db/notifications';
import { outboxPut } from '#db/outbox';
import { resetSqsClient } from '#ports/sqs';
import { resetPushSender } from '#ports/push';
import { deliveriesOf } from '#use-cases/fan-out';
import { handler } from '#functions/webhook-fanout/handler';
import { useTestTable } from '../support/test-table.ts';
import { QUEUE_URL } from './webhook-fixtures.ts';
import { captureTelemetry, type Telemetry } from '../support/telemetry.ts';

// Metrics and error lines on, to assert what a failure counts and logs (test/support/telemetry.ts).
vi.hoisted(() => Object.assign(process.env, { POWERTOOLS_METRICS_DISABLED: 'false', POWERTOOLS_LOG_LEVEL: 'ERROR' }));

const sqsMock = mockClient(SQSClient);
const snsMock = mockClient(SNSClient);
const saved = { queue: process.env.WEBHOOK_QUEUE_URL, app: process.env.PUSH_PLATFORM_APPLICATION_ARN, transport: process.env.PUSH_TRANSPORT };
let t: Telemetry;
let seq = 5000;

beforeAll(async () => {
  await useTestTable();
  Object.assign(process.env, { WEBHOOK_QUEUE_URL: QUEUE_URL, PUSH_PLATFORM_APPLICATION_ARN: 'arn:aws:sns:us-east-1:000000000000:app/GCM/tc' });
  delete process.env.PUSH_TRANSPORT; // the SNS adapter, whose client is mocked
  resetSqsClient();
  resetPushSender();
});
afterAll(() => {
  for (const [name, value] of [['WEBHOOK_QUEUE_URL', saved.queue], ['PUSH_PLATFORM_APPLICATION_ARN', saved.app], ['PUSH_TRANSPORT', saved.transport]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetPushSender();
  sqsMock.restore();
  snsMock.restore();
});
beforeEach(() => {
  sqsMock.reset();
  snsMock.reset();
  sqsMock.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
  snsMock.on(CreatePlatformEndpointCommand).resolves({ EndpointArn: 'arn:aws:sns:us-east-1:000000000000:endpoint/GCM/tc/1' });
  snsMock.on(PublishCommand).resolves({ MessageId: 'm-1' });
  t = captureTelemetry();
});
afterEach(() => t.restore());

/** An organization whose owner has a push device and a webhook subscribed to every event. */
async function workspace() {
  const org = await createOrganization({ name: 'Push Realty', ownerEmail: `push+${randomUUID().slice(0, 8)}@example.test` });
  const now = new Date().toISOString();
  const installationId = randomUUID();
  await putDevice(org.orgId, { deviceId: randomUUID(), userId: org.ownerUserId, installationId, platform: 'android', appVersion: '1.0', pushToken: 'token-1', capabilities: null, permissions: null, registeredAt: now, updatedAt: now });
  const sub = await createWebhook(org.orgId, { name: 'hook', url: 'https://1.1.1.1/hook', events: ['*'] }, new Date());
  return { orgId: org.orgId, ownerUserId: org.ownerUserId, sub };
}

/** The stream record of a `form.submission_received` (a webhook event that also notifies every member). */
function submissionRecord(orgId: string): DynamoDBRecord {
  const item = outboxPut({ orgId, userId: null }, 'form.submission_received', { submissionId: randomUUID(), formDefinitionId: 'buyer-intake', formPurpose: 'buyer_intake', transactionId: randomUUID() }).Put.Item;
  const SequenceNumber = String(++seq);
  return { eventID: SequenceNumber, eventName: 'INSERT', eventSource: 'aws:dynamodb', dynamodb: { Keys: marshall({ PK: item.PK, SK: item.SK }) as any, NewImage: marshall(item) as any, SequenceNumber, StreamViewType: 'NEW_IMAGE' } };
}

/** The sum of metric `name` over the captured EMF documents. */
const metricSum = (name: string) => t.metrics().reduce((sum, doc) => sum + (typeof doc[name] === 'number' ? (doc[name] as number) : 0), 0);
const notificationsOf = (orgId: string, userId: string) => listNotifications(orgId, userId, { limit: 10, unreadOnly: false });

describe('notifications, a step of their own', () => {
  it('a failed push does not fail the record: the delivery is enqueued once, the notification stored, the failure counted', async () => {
    const { orgId, ownerUserId, sub } = await workspace();
    snsMock.on(CreatePlatformEndpointCommand).rejects(new Error('SNS down'));

    const out = await handler({ Records: [submissionRecord(orgId)] });

    expect(out.batchItemFailures).toEqual([]);
    expect(snsMock).toHaveReceivedCommandTimes(CreatePlatformEndpointCommand, 1);
    expect(sqsMock).toHaveReceivedCommandTimes(SendMessageBatchCommand, 1);
    const bodies = sqsMock.commandCalls(SendMessageBatchCommand).flatMap((c) => c.args[0].input.Entries!.map((e) => JSON.parse(e.MessageBody!)));
    expect(bodies.map((m) => m.subscriptionId)).toEqual([sub.id]);
    expect((await notificationsOf(orgId, ownerUserId)).map((n) => n.type)).toEqual(['form.submission_received']);
    expect(metricSum('NotificationFailures')).toBe(1);
    expect(metricSum('FanoutFailures')).toBe(0);
  });

  it('a notification that cannot be stored is counted and logged; the record is not retried, its delivery enqueued once', async () => {
    const { orgId, ownerUserId } = await workspace();
    const record = submissionRecord(orgId);
    // A payload too large for a DynamoDB item (400 KB): the notification's PutItem fails.
    const image = record.dynamodb!.NewImage as any;
    image.envelope.M.data.M.formPurpose = { S: 'x'.repeat(450_000) };

    const out = await handler({ Records: [record] });

    expect(out.batchItemFailures).toEqual([]);
    expect(sqsMock).toHaveReceivedCommandTimes(SendMessageBatchCommand, 1);
    expect(await notificationsOf(orgId, ownerUserId)).toEqual([]);
    expect(metricSum('NotificationFailures')).toBe(1);
    expect(t.logs()).toContainEqual(expect.objectContaining({ level: 'ERROR', message: 'notifications failed', orgId }));
  });

  it('a push that works counts no failure', async () => {
    const { orgId } = await workspace();
    const out = await handler({ Records: [submissionRecord(orgId)] });
    expect(out.batchItemFailures).toEqual([]);
    expect(snsMock).toHaveReceivedCommandTimes(PublishCommand, 1);
    expect(metricSum('NotificationFailures')).toBe(0);
  });

  it('a failed delivery fails the record (the stream retries it) and the notification is still stored', async () => {
    const { orgId, ownerUserId } = await workspace();
    sqsMock.on(SendMessageBatchCommand).rejects(new Error('SQS down'));
    const record = submissionRecord(orgId);

    const out = await handler({ Records: [record] });

    expect(out.batchItemFailures).toEqual([{ itemIdentifier: record.dynamodb!.SequenceNumber }]);
    expect(await notificationsOf(orgId, ownerUserId)).toHaveLength(1);
    expect(metricSum('FanoutFailures')).toBe(1);
    expect(t.logs()).toContainEqual(expect.objectContaining({ level: 'ERROR', message: 'fan-out failed', orgId }));
  });
});

describe('internal events', () => {
  it('are dropped before any subscription is read; a webhook event reads them', async () => {
    const { orgId } = await workspace();
    const subscriptionsOf = vi.fn(async () => []);
    const assigned = outboxPut({ orgId, userId: null }, 'task.assigned', { taskId: 't-1', transactionId: 'tx-1', title: 'Order survey', dueDate: null, assigneeUserId: 'u-2', previousAssigneeUserId: null }).Put.Item.envelope;
    const created = outboxPut({ orgId, userId: null }, 'task.created', { taskId: 't-1', transactionId: 'tx-1', title: 'Order survey', dueDate: null, assigneeUserId: null }).Put.Item.envelope;

    expect(await deliveriesOf(assigned, subscriptionsOf, new Date())).toEqual([]);
    expect(subscriptionsOf).not.toHaveBeenCalled();
    await deliveriesOf(created, subscriptionsOf, new Date());
    expect(subscriptionsOf).toHaveBeenCalledWith(orgId);
  });
});
