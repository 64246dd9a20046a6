/**
 * Webhook delivery worker (SQS → HTTPS POST): each message of the batch goes to the delivery use case
 * (shared/use-cases/deliver-webhook.ts) through Powertools' `BatchProcessor`, in parallel, sharing one
 * `deliveryBatch` (subscription reads, attempt records: shared/use-cases/delivery-batch.ts); every record to
 * redeliver (a failed attempt, an unexpected error) is reported in `batchItemFailures` (the event source mapping
 * has `reportBatchItemFailures`).
 */
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { countDelivery, deliver } from '#use-cases/deliver-webhook';
import { deliveryBatch, type DeliveryBatch } from '#use-cases/delivery-batch';
import { logger, observedHandler } from '#observability/powertools';

/** A message whose attempt failed and that SQS should deliver again (after the visibility set by `deliver`). */
class RedeliverLater extends Error { override readonly name = 'RedeliverLater'; }

const processor = new BatchProcessor(EventType.SQS);

/** One record for the `BatchProcessor`: throws to have it reported in `batchItemFailures`. */
async function deliverRecord(record: SQSRecord, batch: DeliveryBatch): Promise<void> {
  let redeliver: boolean;
  try {
    redeliver = await deliver(record, undefined, batch);
  } catch (err) {
    countDelivery('DeliveryErrors');
    logger.error('delivery failed', { messageId: record.messageId, error: err });
    throw err;
  }
  if (redeliver) throw new RedeliverLater(record.messageId);
}

/**
 * Lambda handler (SQS event source with `reportBatchItemFailures`).
 * @returns the messages to redeliver (failed attempts and unexpected errors); never throws for a failed batch
 */
export const handler = observedHandler<SQSEvent, SQSBatchResponse>((event, context) => {
  const batch = deliveryBatch(event.Records.length);
  return processPartialResponse(event, (record: SQSRecord) => deliverRecord(record, batch), processor, { context, throwOnFullBatchFailure: false });
});
