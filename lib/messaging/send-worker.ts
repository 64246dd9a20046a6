/**
 * `SendWorkerSource`: the send worker's event source (issue 24, "sends leave the request path").
 *
 *   table stream ──(filter: OutboxEvent INSERT, envelope.eventType = message.queued | service_email.queued)──▶ message-send ──▶ SES / SMS
 *        │ record failed 10× or 1 day old
 *        ▼
 *   send DLQ (stream position metadata; alarmed in lib/messaging-pipeline.ts)
 *
 * A second consumer of the table's stream beside webhook fan-out (lib/webhook-pipeline.ts): DynamoDB Streams serves
 * two Lambda consumers per shard without throttling, so service emails (`service_email.queued`) share this mapping
 * rather than add a third. The filter lets only those two outbox event types through (`SEND_WORKER_EVENTS`,
 * shared/events/catalog.ts), so the worker is invoked (and billed) for sends only. A failed record is retried in order (`reportBatchItemFailures`);
 * shared/use-cases/messaging/deliver-message.ts keeps a retry from sending twice.
 */
import { Duration, Validations } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { acknowledgeQueueSendKeyGrant, queueEncryption, type DataKey } from '../data-key.ts';
import type { ServiceFunction } from '../service-function.ts';
import { SEND_WORKER_EVENTS } from '#events/catalog';

/** Inputs of `SendWorkerSource`. */
export interface SendWorkerSourceProps {
  /** The service table, with a stream of new images. */
  readonly table: dynamodb.ITable;
  /** functions/message-send. */
  readonly worker: ServiceFunction;
  /** Encrypts the DLQ (lib/data-key.ts). Default: SQS-managed encryption. */
  readonly dataKey?: DataKey;
}

/** The stream mapping of the send worker and its on-failure DLQ. */
export class SendWorkerSource extends Construct {
  /** Stream positions of `message.queued` / `service_email.queued` records the worker gave up on (14 days). */
  readonly deadLetterQueue: sqs.Queue;

  constructor(scope: Construct, id: string, props: SendWorkerSourceProps) {
    super(scope, id);
    this.deadLetterQueue = new sqs.Queue(this, 'SendDlq', { ...queueEncryption(props.dataKey), enforceSSL: true, retentionPeriod: Duration.days(14) });
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: "This queue is itself a dead-letter destination (the send worker's stream mapping's on-failure destination); it is alarmed on any visible message and retains them 14 days.",
    });
    if (props.dataKey) acknowledgeQueueSendKeyGrant(props.worker, 'its on-failure DLQ');
    props.worker.live.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: lambda.StartingPosition.TRIM_HORIZON,
        // Sends are slow (an SMTP or SES round trip each): small batches keep a retry's repeat short.
        batchSize: 10,
        bisectBatchOnError: false,
        reportBatchItemFailures: true,
        retryAttempts: 10,
        maxRecordAge: Duration.days(1),
        onFailure: new SqsDlq(this.deadLetterQueue),
        filters: [
          lambda.FilterCriteria.filter({
            eventName: lambda.FilterRule.isEqual('INSERT'),
            dynamodb: { NewImage: { entity: { S: lambda.FilterRule.isEqual('OutboxEvent') }, envelope: { M: { eventType: { S: lambda.FilterRule.or(...SEND_WORKER_EVENTS) } } } } },
          }),
        ],
      }),
    );
    Validations.of(props.worker).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'Resource "*" holds only actions without resource-level permissions: xray:PutTraceSegments/PutTelemetryRecords ' +
        '(active tracing) and dynamodb:ListStreams (needed by the Lambda stream poller; the stream-reading actions ' +
        'DescribeStream/GetShardIterator/GetRecords are scoped to this table\'s stream ARN).',
    });
  }
}
