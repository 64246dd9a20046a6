/**
 * `WebhookPipeline`: outbox events to subscribers' HTTPS endpoints.
 *
 *   table stream ──(filter: OutboxEvent INSERT)──▶ fan-out ──SendMessageBatch──▶ delivery queue ──▶ delivery ──▶ POST
 *        │ batch failed 10× or 1 day old                                            │ maxAttempts() receives
 *        ▼                                                                          ▼
 *   fan-out DLQ (stream position metadata)                                      delivery DLQ (the message)
 *
 * Retries of one delivery follow `shared/events/retry-schedule.ts`: the delivery function sets the failed
 * message's visibility to the next delay itself, and the queue's `maxReceiveCount` equals `maxAttempts()` of the
 * same schedule, so SQS dead-letters a message exactly when its attempts are spent. The pipeline owns its
 * alarms (both DLQs non-empty, a dead-letter message near expiry, fan-out falling behind the stream, the delivery
 * queue's oldest message waiting too long, worker errors, fan-out notification failures), each linked to its runbook
 * section, and a dashboard section.
 */
import { Duration, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { acknowledgeQueueSendKeyGrant, queueEncryption, type DataKey } from './data-key.ts';
import { maxAttempts, retryScheduleSeconds } from '#events/retry-schedule';
import { deadLetterAgeAlarm } from './alarms/queue-alarms.ts';
import { withRunbook, type RunbookAnchor } from './alarms/runbook.ts';
import { ServiceFunction } from './service-function.ts';
import { WEBHOOK_DELIVERY_TABLE_ACCESS, WEBHOOK_FANOUT_TABLE_ACCESS, type WebhookWorker } from './table-access.ts';

/** Timeout of both workers (s). A delivery POSTs up to 10 messages in parallel, each ≤ 30 s (subscription max). */
export const WORKER_TIMEOUT_SECONDS = 60;
/** Delivery queue visibility timeout: 6 × the consumer's timeout (AWS guidance for Lambda SQS triggers), in s. */
export const DELIVERY_VISIBILITY_TIMEOUT_SECONDS = 6 * WORKER_TIMEOUT_SECONDS;
/** Default reserved concurrency of the delivery function (context `webhookConcurrency`). */
export const DEFAULT_WEBHOOK_CONCURRENCY = 10;
/** Delivery queue retention (days): must outlast the whole retry schedule (checked at synth). */
const DELIVERY_RETENTION_DAYS = 4;
/** Largest jitter factor `retryDelaySeconds` applies (+20 %). */
const MAX_JITTER = 1.2;
/** Floor of the delivery queue's oldest-message alarm (s). */
const MIN_QUEUE_AGE_ALARM_SECONDS = 3600;
/** Webhook worker errors (crash, timeout; a failed POST is a batch item failure, not an error) in 15 min that alarm. */
export const WEBHOOK_WORKER_ERRORS_THRESHOLD = 3;
/**
 * Fan-out `NotificationFailures` (failed pushes, and events whose team notifications could not be stored; never
 * retried: shared/use-cases/fan-out.ts) in 15 min that alarm. A few failed pushes (a stale device) are expected.
 */
export const NOTIFICATION_FAILURES_THRESHOLD = 10;

/**
 * Age (s) of the delivery queue's oldest message that alarms: above the first two retry delays (+20 % jitter) plus
 * three visibility timeouts, and at least 1 hour. SQS leaves a message received three times out of
 * `ApproximateAgeOfOldestMessage` (Amazon SQS Developer Guide, "Available CloudWatch metrics for Amazon SQS"), so
 * the hours-long later retries do not keep the metric high; a message that was never received does.
 */
export function deliveryQueueAgeAlarmSeconds(schedule: readonly number[]): number {
  const firstTwo = (schedule[0] ?? 0) + (schedule[1] ?? 0);
  return Math.max(MIN_QUEUE_AGE_ALARM_SECONDS, Math.ceil(firstTwo * MAX_JITTER) + 3 * DELIVERY_VISIBILITY_TIMEOUT_SECONDS);
}

/** Inputs of `WebhookPipeline`. */
export interface WebhookPipelineProps {
  /** The service table; must have a stream with new images (the outbox items). */
  readonly table: dynamodb.ITable;
  /** Handler module of each worker (absolute path of `functions/<worker>/handler.ts`). */
  readonly entryOf: (worker: WebhookWorker) => string;
  /**
   * Most delivery functions running at once: the SQS event source's `maxConcurrency` (the poller never hands out
   * more batches, so receivers see a bounded rate). Integer 2–1000. Default `DEFAULT_WEBHOOK_CONCURRENCY` (10).
   */
  readonly deliveryConcurrency?: number;
  /**
   * Reserved concurrency of the delivery function, opt-in: an integer ≥ `deliveryConcurrency` (so a batch the
   * poller hands out is never throttled, which would eat an attempt). Default unset: no reservation, because
   * Lambda refuses any reservation that leaves an account fewer than 10 unreserved executions, and a new
   * account's whole quota can be 10 — the stack must deploy there.
   */
  readonly deliveryReservedConcurrency?: number;
  /**
   * Retry delays as `WEBHOOK_RETRY_SCHEDULE` spells them (comma-separated seconds, e.g. `60,300,1800`). Default
   * unset: the code's schedule (60, 300, 1800, 7200, 21600, 43200 s). Sets the queue's `maxReceiveCount` too.
   * @throws Error (at synth) when invalid or when it would outlive the queue's retention
   */
  readonly retrySchedule?: string;
  /** Consecutive failures that pause a subscription (`WEBHOOK_BREAKER_THRESHOLD`). Default unset: code default 20. */
  readonly breakerThreshold?: number;
  /**
   * An SNS mobile-push platform application (`arn:aws:sns:<region>:<account>:app/<GCM|APNS|APNS_SANDBOX>/<name>`,
   * context `pushPlatformApplicationArn`): fan-out, which makes the team's notifications, pushes them to registered
   * devices through it. Default unset: push is off (notifications are still listed).
   * @throws Error (at synth) on a malformed ARN
   */
  readonly pushPlatformApplicationArn?: string;
  /** Encrypts the queues (lib/data-key.ts). Default: SQS-managed encryption. */
  readonly dataKey?: DataKey;
}

/** Delivery queue + DLQ, fan-out and delivery functions, their event sources, grants and alarms. */
export class WebhookPipeline extends Construct {
  /** Delivery messages (`DeliveryMessage` JSON), SQS-managed encryption, TLS only. */
  readonly queue: sqs.Queue;
  /** Deliveries whose attempts are spent (14 days' retention). */
  readonly deadLetterQueue: sqs.Queue;
  /** Fan-out's stream on-failure destination: metadata (shard, sequence range) of batches it gave up on. */
  readonly fanoutDeadLetterQueue: sqs.Queue;
  /** Stream consumer: one delivery message per (outbox event, subscription). */
  readonly fanout: ServiceFunction;
  /** Queue consumer: signs and POSTs, records attempts, schedules retries. */
  readonly delivery: ServiceFunction;
  /** DLQ depth (delivery, fan-out), DLQ age, fan-out iterator age, delivery queue age, worker errors, notification failures. */
  readonly alarms: readonly cloudwatch.Alarm[];

  constructor(scope: Construct, id: string, props: WebhookPipelineProps) {
    super(scope, id);
    const schedule = retryScheduleSeconds(props.retrySchedule); // throws on an invalid schedule
    const attempts = maxAttempts(schedule);
    const concurrency = props.deliveryConcurrency ?? DEFAULT_WEBHOOK_CONCURRENCY;
    if (!Number.isInteger(concurrency) || concurrency < 2 || concurrency > 1000) {
      throw new Error(`webhook delivery concurrency must be an integer from 2 to 1000 (got ${concurrency})`);
    }
    const reserved = props.deliveryReservedConcurrency;
    if (reserved !== undefined && (!Number.isInteger(reserved) || reserved < concurrency || reserved > 1000)) {
      throw new Error(`webhook delivery reserved concurrency must be an integer from the delivery concurrency (${concurrency}) to 1000 (got ${reserved})`);
    }
    const breaker = props.breakerThreshold;
    if (breaker !== undefined && (!Number.isInteger(breaker) || breaker < 1)) {
      throw new Error(`webhook breaker threshold must be a positive integer (got ${breaker})`);
    }
    // Worst case from first receive to last: every delay jittered +20 % plus every attempt running to its timeout.
    const retrySpanSeconds = Math.ceil(schedule.reduce((a, b) => a + b, 0) * MAX_JITTER) + attempts * DELIVERY_VISIBILITY_TIMEOUT_SECONDS;
    if (retrySpanSeconds >= Duration.days(DELIVERY_RETENTION_DAYS).toSeconds()) {
      throw new Error(`webhook retry schedule spans ${retrySpanSeconds} s, beyond the delivery queue's ${DELIVERY_RETENTION_DAYS}-day retention`);
    }

    // Queues. A standard queue keeps a message's first-enqueue time when it moves to the DLQ, so the DLQ's
    // 14 days count from fan-out (at least ~13 days for an operator to redrive).
    const queueDefaults = { ...queueEncryption(props.dataKey), enforceSSL: true } as const;
    this.deadLetterQueue = new sqs.Queue(this, 'DeliveryDlq', { ...queueDefaults, retentionPeriod: Duration.days(14) });
    this.queue = new sqs.Queue(this, 'DeliveryQueue', {
      ...queueDefaults,
      visibilityTimeout: Duration.seconds(DELIVERY_VISIBILITY_TIMEOUT_SECONDS),
      retentionPeriod: Duration.days(DELIVERY_RETENTION_DAYS),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: attempts },
    });
    this.fanoutDeadLetterQueue = new sqs.Queue(this, 'FanoutDlq', { ...queueDefaults, retentionPeriod: Duration.days(14) });
    for (const dlq of [this.deadLetterQueue, this.fanoutDeadLetterQueue]) {
      Validations.of(dlq).acknowledge({
        id: 'AwsSolutions-SQS3',
        reason:
          'This queue is itself a dead-letter queue (the delivery queue\'s redrive target, or the fan-out stream ' +
          'mapping\'s on-failure destination); a DLQ of a DLQ would only move the same messages again. It is ' +
          'alarmed on any visible message and retains them 14 days.',
      });
    }

    // Fan-out: DynamoDB stream → delivery queue.
    this.fanout = new ServiceFunction(this, 'Fanout', {
      entry: props.entryOf('webhook-fanout'),
      serviceName: 'webhook-fanout',
      description: 'Webhook fan-out: outbox stream records to delivery messages (functions/webhook-fanout/handler.ts)',
      timeout: Duration.seconds(WORKER_TIMEOUT_SECONDS),
      environment: { WEBHOOK_QUEUE_URL: this.queue.queueUrl },
    });
    this.fanout.bindTable(props.table, WEBHOOK_FANOUT_TABLE_ACCESS, { indexes: false });
    this.queue.grantSendMessages(this.fanout.fn);
    if (props.pushPlatformApplicationArn !== undefined) this.grantPush(props.pushPlatformApplicationArn);
    if (props.dataKey) acknowledgeQueueSendKeyGrant(this.fanout, 'the delivery queue it fills and its on-failure DLQ');
    this.fanout.live.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: lambda.StartingPosition.TRIM_HORIZON,
        batchSize: 100,
        // The handler reports the first failed record; the stream retries from it, in order.
        bisectBatchOnError: false,
        reportBatchItemFailures: true,
        retryAttempts: 10,
        maxRecordAge: Duration.days(1),
        onFailure: new SqsDlq(this.fanoutDeadLetterQueue),
        // Only outbox inserts invoke fan-out (every other table write is filtered out by Lambda, unbilled).
        filters: [
          lambda.FilterCriteria.filter({
            eventName: lambda.FilterRule.isEqual('INSERT'),
            dynamodb: { NewImage: { entity: { S: lambda.FilterRule.isEqual('OutboxEvent') } } },
          }),
        ],
      }),
    );
    // The event source adds `dynamodb:ListStreams` on "*" to the statement ServiceFunction acknowledges for X-Ray;
    // restated here so the acknowledgment names every action it covers.
    Validations.of(this.fanout).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'Resource "*" holds only actions without resource-level permissions: xray:PutTraceSegments/PutTelemetryRecords ' +
        '(active tracing) and dynamodb:ListStreams (needed by the Lambda stream poller; the stream-reading actions ' +
        'DescribeStream/GetShardIterator/GetRecords are scoped to this table\'s stream ARN).',
    });

    // Delivery: queue → HTTPS POST.
    this.delivery = new ServiceFunction(this, 'Delivery', {
      entry: props.entryOf('webhook-delivery'),
      serviceName: 'webhook-delivery',
      description: 'Webhook delivery: signed HTTPS POST per message (functions/webhook-delivery/handler.ts)',
      timeout: Duration.seconds(WORKER_TIMEOUT_SECONDS),
      memorySize: 256,
      reservedConcurrentExecutions: reserved,
      environment: {
        WEBHOOK_QUEUE_URL: this.queue.queueUrl,
        ...(props.retrySchedule !== undefined && { WEBHOOK_RETRY_SCHEDULE: schedule.join(',') }),
        ...(breaker !== undefined && { WEBHOOK_BREAKER_THRESHOLD: String(breaker) }),
      },
    });
    this.delivery.bindTable(props.table, WEBHOOK_DELIVERY_TABLE_ACCESS, { indexes: false });
    // The handler sets a failed message's visibility to its retry delay (the event source's consume grant also
    // includes this action; stated here because the code calls it directly).
    this.queue.grant(this.delivery.fn, 'sqs:ChangeMessageVisibility');
    this.delivery.live.addEventSource(
      new SqsEventSource(this.queue, {
        // No batching window: Lambda invokes as soon as its long poll returns messages (up to 10), so an event's
        // first attempt follows its commit within the stream's and the queue's polling (a window would add up to
        // its length to every delivery at low traffic); under load the batches fill anyway.
        batchSize: 10,
        reportBatchItemFailures: true,
        maxConcurrency: concurrency,
      }),
    );

    // Alarms.
    const fiveMinutes = Duration.minutes(5);
    /** Alarms above `threshold` (a count: at or above it, except 0: above it). */
    const alarm = (alarmId: string, description: string, anchor: RunbookAnchor, metric: cloudwatch.IMetric, threshold = 0, evaluationPeriods = 1, strictlyAbove = threshold === 0) =>
      new cloudwatch.Alarm(this, alarmId, {
        alarmDescription: withRunbook(this, description, anchor),
        metric,
        threshold,
        comparisonOperator: strictlyAbove ? cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD : cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
    const depth = (queue: sqs.IQueue) => queue.metricApproximateNumberOfMessagesVisible({ period: fiveMinutes, statistic: 'Maximum' });
    const queueAge = deliveryQueueAgeAlarmSeconds(schedule);
    const fifteenMinutes = { period: Duration.minutes(15), statistic: 'Sum' };
    this.alarms = [
      alarm('DeliveryDlqAlarm', 'Webhook delivery gave up (all retries failed): at least one message in its dead-letter queue.', 'webhook-delivery-dlq', depth(this.deadLetterQueue)),
      alarm('FanoutDlqAlarm', 'Webhook fan-out skipped stream records (10 retries or 1 day): at least one message in its dead-letter queue.', 'webhook-fan-out-dlq', depth(this.fanoutDeadLetterQueue)),
      alarm(
        'FanoutIteratorAgeAlarm',
        'Webhook fan-out is more than 5 min behind the table stream (records older than 1 day are skipped to the fan-out DLQ).',
        'webhook-fan-out-lag',
        this.fanout.fn.metric('IteratorAge', { period: fiveMinutes, statistic: 'Maximum' }),
        Duration.minutes(5).toMilliseconds(),
        1,
        true,
      ),
      alarm(
        'DeliveryQueueAgeAlarm',
        `Webhook delivery queue: a message not yet retried twice has waited >= ${queueAge} s for 15 min (deliveries are not being picked up).`,
        'webhook-delivery-queue-age',
        this.queue.metricApproximateAgeOfOldestMessage({ period: fiveMinutes, statistic: 'Maximum' }),
        queueAge,
        3,
      ),
      alarm(
        'WorkerErrorsAlarm',
        `Webhook workers: >= ${WEBHOOK_WORKER_ERRORS_THRESHOLD} fan-out or delivery function errors (crash, timeout, OOM) in 15 min.`,
        'webhook-worker-errors',
        new cloudwatch.MathExpression({
          expression: 'delivery + fanout',
          usingMetrics: { delivery: this.delivery.fn.metricErrors(fifteenMinutes), fanout: this.fanout.fn.metricErrors(fifteenMinutes) },
          period: Duration.minutes(15),
          label: 'webhook worker errors',
        }),
        WEBHOOK_WORKER_ERRORS_THRESHOLD,
      ),
      alarm(
        'NotificationFailuresAlarm',
        `Fan-out notifications: >= ${NOTIFICATION_FAILURES_THRESHOLD} failed pushes or unstored team notifications in 15 min (not retried; webhook deliveries are unaffected).`,
        'notification-failures',
        // The fan-out's EMF metric (namespace and `service` dimension: shared/observability/powertools.ts).
        new cloudwatch.Metric({ namespace: 'TransactionCoordination', metricName: 'NotificationFailures', dimensionsMap: { service: 'webhook-fanout' }, ...fifteenMinutes }),
        NOTIFICATION_FAILURES_THRESHOLD,
      ),
      deadLetterAgeAlarm(this, 'DlqAgeAlarm', [
        { label: 'webhook delivery DLQ', queue: this.deadLetterQueue },
        { label: 'webhook fan-out DLQ', queue: this.fanoutDeadLetterQueue },
      ]),
    ];
  }

  /** One dashboard row (24 wide): queue depth, oldest message age, delivery errors, delivery duration, fan-out lag. */
  dashboardWidgets(): cloudwatch.IWidget[] {
    const minute = { period: Duration.minutes(1) };
    return [
      new cloudwatch.GraphWidget({
        title: 'Webhook queues (messages)',
        width: 6,
        left: [
          this.queue.metricApproximateNumberOfMessagesVisible({ ...minute, statistic: 'Maximum', label: 'ready' }),
          this.queue.metricApproximateNumberOfMessagesNotVisible({ ...minute, statistic: 'Maximum', label: 'in flight or waiting to retry' }),
          this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ ...minute, statistic: 'Maximum', label: 'delivery DLQ' }),
          this.fanoutDeadLetterQueue.metricApproximateNumberOfMessagesVisible({ ...minute, statistic: 'Maximum', label: 'fan-out DLQ' }),
        ],
        leftYAxis: { min: 0, showUnits: false },
      }),
      new cloudwatch.GraphWidget({
        // Later retries wait hours by design; the alarm (DeliveryQueueAgeAlarm) ignores messages received 3 times.
        title: 'Webhook queue: oldest message age (s)',
        width: 6,
        left: [this.queue.metricApproximateAgeOfOldestMessage({ ...minute, statistic: 'Maximum', label: 'oldest' })],
        leftYAxis: { min: 0, showUnits: false },
      }),
      new cloudwatch.GraphWidget({
        title: 'Webhook delivery: errors, throttles (count)',
        width: 4,
        left: [
          this.delivery.fn.metricErrors({ ...minute, statistic: 'Sum', label: 'errors' }),
          this.delivery.fn.metricThrottles({ ...minute, statistic: 'Sum', label: 'throttles' }),
          this.fanout.fn.metricErrors({ ...minute, statistic: 'Sum', label: 'fan-out errors' }),
        ],
        leftYAxis: { min: 0, showUnits: false },
      }),
      new cloudwatch.GraphWidget({
        title: 'Webhook delivery duration (ms)',
        width: 4,
        left: [
          this.delivery.fn.metricDuration({ ...minute, statistic: 'p50', label: 'p50' }),
          this.delivery.fn.metricDuration({ ...minute, statistic: 'p99', label: 'p99' }),
          this.delivery.fn.metricDuration({ ...minute, statistic: 'Maximum', label: 'max' }),
        ],
        leftYAxis: { min: 0, showUnits: false },
      }),
      new cloudwatch.GraphWidget({
        title: 'Webhook fan-out iterator age (ms)',
        width: 4,
        left: [this.fanout.fn.metric('IteratorAge', { ...minute, statistic: 'Maximum', label: 'max' })],
        leftYAxis: { min: 0, showUnits: false },
      }),
    ];
  }

  /** Lets fan-out register device tokens on the platform application and publish to its endpoints. */
  private grantPush(appArn: string): void {
    const m = /^arn:(aws[a-z-]*):sns:([a-z0-9-]+):(\d{12}):app\/(GCM|APNS|APNS_SANDBOX)\/([\w.-]+)$/.exec(appArn);
    if (!m) throw new Error(`pushPlatformApplicationArn is not an SNS platform application ARN: ${appArn}`);
    const [, partition, region, account, platform, name] = m;
    const endpoints = `arn:${partition}:sns:${region}:${account}:endpoint/${platform}/${name}/*`;
    this.fanout.fn.addEnvironment('PUSH_PLATFORM_APPLICATION_ARN', appArn);
    this.fanout.fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['sns:CreatePlatformEndpoint'], resources: [appArn] }));
    this.fanout.fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['sns:Publish'], resources: [endpoints] }));
    Validations.of(this.fanout).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${endpoints}]`,
      reason: 'SNS names each device endpoint with a random id under its platform application; the grant is Publish only, on this one application\'s endpoints.',
    });
  }
}
