/** Builders for webhook worker tests: an organization, a delivery message, the SQS record that carries it, and the delivery worker's harness. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { ChangeMessageVisibilityBatchCommand, ChangeMessageVisibilityCommand, SQSClient } from '@aws-sdk/client-sqs';
import { resetSqsClient } from '#ports/sqs';
import { useTestTable } from '../support/test-table.ts';
import { startReceiver, status, type Receiver } from '../unit/webhook-receiver.ts';
import type { SQSRecord } from 'aws-lambda';
import { createOrganization } from '#db/orgs';
import type { DeliveryMessage } from '#db/webhook-deliveries';
import type { EventEnvelope } from '#events/outbox';
import type { EventType } from '#events/catalog';

export const QUEUE_URL = 'https://sqs.local/000000000000/webhook-deliveries';

export async function newOrgId(): Promise<string> {
  const org = await createOrganization({ name: 'Hook Realty', ownerEmail: `hooks+${randomUUID().slice(0, 8)}@example.test` });
  return org.orgId;
}

/** A delivery message for one subscription; `payload` is the JSON envelope, as fan-out builds it. */
export function deliveryMessage(orgId: string, subscriptionId: string, eventType: EventType = 'task.created', over: Partial<DeliveryMessage> = {}): DeliveryMessage {
  const envelope = { eventType, eventId: randomUUID(), timestamp: new Date().toISOString(), organizationId: orgId, userId: null, data: { taskId: randomUUID() } } as EventEnvelope;
  return { orgId, subscriptionId, eventId: envelope.eventId, eventType, payload: JSON.stringify(envelope), ...over };
}

/** The SQS record Lambda would hand the worker on receive number `receiveCount`. */
export function sqsRecord(m: DeliveryMessage, receiveCount = 1, messageId = randomUUID()): SQSRecord {
  return {
    messageId,
    receiptHandle: `rh-${messageId}-${receiveCount}`,
    body: JSON.stringify(m),
    attributes: { ApproximateReceiveCount: String(receiveCount), SentTimestamp: String(Date.now()), SenderId: 'local', ApproximateFirstReceiveTimestamp: String(Date.now()) },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:local:000000000000:webhook-deliveries',
    awsRegion: 'local',
  };
}

/**
 * The delivery worker's harness for one test file, registered as vitest hooks: a fresh table, `LOCAL_MODE` and the
 * queue URL set (and `env`'s variables restored after the file, as they were before it), SQS mocked with
 * `ChangeMessageVisibility` and `ChangeMessageVisibilityBatch` answering, a receiver on 127.0.0.1 answering 200 before each test, and an organization.
 * `rx` and `orgId` are set once its `beforeAll` has run.
 * @param restore further variables the file changes, restored after it (their values before the file)
 */
export function useDeliveryWorker(restore: Record<string, string | undefined> = {}) {
  const sqsMock = mockClient(SQSClient);
  const saved = { LOCAL_MODE: process.env.LOCAL_MODE, WEBHOOK_QUEUE_URL: process.env.WEBHOOK_QUEUE_URL, ...restore };
  const h = { sqsMock, rx: undefined as unknown as Receiver, orgId: '' };
  beforeAll(async () => {
    await useTestTable();
    Object.assign(process.env, { LOCAL_MODE: 'true', WEBHOOK_QUEUE_URL: QUEUE_URL });
    resetSqsClient();
    h.rx = await startReceiver();
    h.orgId = await newOrgId();
  });
  afterAll(async () => {
    await h.rx?.close();
    for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
    sqsMock.restore();
  });
  beforeEach(() => {
    sqsMock.reset();
    sqsMock.on(ChangeMessageVisibilityCommand).resolves({});
    sqsMock.on(ChangeMessageVisibilityBatchCommand).resolves({ Successful: [], Failed: [] });
    h.rx.received.length = 0;
    h.rx.respondWith(status(200));
  });
  return h;
}
