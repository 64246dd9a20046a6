/**
 * Outbox fan-out worker, the outbox relay (DynamoDB Streams → SQS, EventBridge Scheduler): parses each stream record
 * into its outbox envelope and hands it to the fan-out use case (shared/use-cases/fan-out.ts: webhook deliveries,
 * then the team's notifications, which fail apart) and to the schedule relay (shared/use-cases/schedule-relay.ts:
 * creates or deletes the one-time schedule a `schedule.requested` / `schedule.cancel_requested` event asks for).
 * Records whose deliveries failed are reported (`batchItemFailures`, through Powertools' `BatchProcessor`), so the
 * stream retries from the earliest of them; a failed notification is counted, never retried; a schedule the relay
 * cannot create marks its record instead of failing it.
 */
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { envelopeOfItem } from '#db/outbox';
import type { EventEnvelope } from '#events/outbox';
import { fanOutBatch } from '#use-cases/fan-out';
import { relaySchedule } from '#use-cases/schedule-relay';
import { observedHandler } from '#observability/powertools';

/** The outbox envelope of a stream record, or undefined for anything else (MODIFY, REMOVE, other items). */
export function envelopeOf(record: DynamoDBRecord): EventEnvelope | undefined {
  if (record.eventName !== 'INSERT' || !record.dynamodb?.NewImage) return undefined;
  return envelopeOfItem(unmarshall(record.dynamodb.NewImage as Record<string, AttributeValue>));
}

const processor = new BatchProcessor(EventType.DynamoDBStreams);

/**
 * Lambda handler (DynamoDB stream event source with `reportBatchItemFailures`, filtered to outbox inserts).
 * Every failed record is reported by its sequence number; Lambda (and the local stream poller) retries the
 * stream from the lowest, and records after it that succeeded skip their claimed deliveries on the retry.
 * @returns the failed records; never throws for a failed batch
 */
export const handler = observedHandler<DynamoDBStreamEvent, DynamoDBBatchResponse>((event, context) => {
  const now = new Date();
  const fanOut = fanOutBatch(now);
  // Fan-out ignores schedule.* events; the schedule relay acts on them only (issue 24).
  const relay = (record: DynamoDBRecord) => ((envelope) => Promise.all([fanOut(envelope), relaySchedule(envelope, now)]))(envelopeOf(record));
  return processPartialResponse(event, relay, processor, { context, throwOnFullBatchFailure: false });
});
