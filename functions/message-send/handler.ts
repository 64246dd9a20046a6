/**
 * Send worker (DynamoDB Streams, filtered to `message.queued` and `service_email.queued` outbox inserts): hands each
 * queued email or text to its provider and marks it on the thread (shared/use-cases/messaging/deliver-message.ts),
 * and each queued service email (a disclosure share, an invitation, a workspace notice) to the plain mail port
 * (shared/use-cases/messaging/deliver-service-email.ts). A record that failed
 * (nothing went out, or another attempt holds the message) is reported (`batchItemFailures`), so the stream retries
 * from it; the use case's attempt record keeps a retry from sending twice.
 */
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { envelopeOfItem } from '#db/outbox';
import { deliverQueuedMessage } from '#use-cases/messaging/deliver-message';
import { deliverQueuedServiceEmail } from '#use-cases/messaging/deliver-service-email';
import { observedHandler } from '#observability/powertools';
import { clockNow } from '#ports/clock';

const processor = new BatchProcessor(EventType.DynamoDBStreams);

/** Sends the message or service email a `message.queued` / `service_email.queued` record names; ignores any other record. */
async function sendRecord(record: DynamoDBRecord): Promise<void> {
  if (record.eventName !== 'INSERT' || !record.dynamodb?.NewImage) return;
  const envelope = envelopeOfItem(unmarshall(record.dynamodb.NewImage as Record<string, AttributeValue>));
  if (envelope?.eventType === 'message.queued') await deliverQueuedMessage(envelope.organizationId, envelope.data.communicationId, clockNow);
  else if (envelope?.eventType === 'service_email.queued') await deliverQueuedServiceEmail(envelope.organizationId, envelope.data.emailId, clockNow);
}

/**
 * Lambda handler (DynamoDB stream event source with `reportBatchItemFailures`).
 * @returns the failed records; never throws for a failed batch
 */
export const handler = observedHandler<DynamoDBStreamEvent, DynamoDBBatchResponse>((event, context) =>
  processPartialResponse(event, sendRecord, processor, { context, throwOnFullBatchFailure: false }),
);
