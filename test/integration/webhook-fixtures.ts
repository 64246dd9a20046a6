/** Builders for webhook worker tests: an organization, a delivery message and the SQS record that carries it. */
import { randomUUID } from 'node:crypto';
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
