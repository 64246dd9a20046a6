/**
 * `MessagingPipeline`: email, SMS and scheduled sends in AWS, and the workers that take what comes back.
 *
 *   mail:send ─▶ SES (configuration set) ─events─▶ topic ─▶ email-events        lib/messaging/mail-sending.ts
 *   reply ─▶ SES receipt rule ─▶ inbound-mail bucket ─▶ inbound-email          lib/messaging/inbound-mail.ts (with a mail domain)
 *   sms:send ─▶ End User Messaging SMS;  reply/STOP ─▶ topic ─▶ inbound-sms     lib/messaging/sms.ts
 *   End User Messaging SMS ─receipts (configuration set)─▶ topic ─▶ sms-events     lib/messaging/sms.ts
 *   schedule.requested (outbox) ─stream─▶ webhook-fanout (the outbox relay) ─▶ EventBridge Scheduler ─▶ scheduled-send
 *                                                                              lib/messaging/scheduler.ts
 *   messages:queue (API) / scheduled-send ─▶ message.queued | service_email.queued ─stream─▶ message-send ─▶ SES / SMTP / SMS
 *                                                                              lib/messaging/send-worker.ts
 *   GET /l/{token} (HTTP API, no credentials) ─▶ public-links ─▶ 302 to a 5-minute download URL
 *
 * - Workers are `ServiceFunction`s with their own table actions (lib/table-access.ts `MESSAGING_WORKER_TABLE_ACCESS`)
 *   and only the environment their ports read. The four asynchronous ones (SNS, S3 and the scheduler all invoke
 *   Lambda asynchronously) retry twice and then go to one failure queue (`failureQueue`, alarmed), so no event is
 *   dropped silently.
 * - Both topics are encrypted with one customer managed key (AWS managed keys cannot grant SES or End User
 *   Messaging), rotated yearly; its policy lets those two services use it from this account only.
 * - `grantCapabilities` turns an API group's `mail:send`, `sms:send` and `messages:queue` into grants and
 *   environment (see each construct's `grant…`). No API group manages schedules: `scheduler.grantManage` goes to
 *   the outbox relay (lib/stack.ts).
 * - Alarms: failure queue and scheduler DLQ not empty, a message in either 7 days old (half its retention),
 *   scheduler unable to reach its DLQ, a requested schedule the outbox relay could not create, worker errors, SES account bounce and complaint rates nearing the levels at
 *   which SES reviews an account, each linked to its runbook section; a dashboard row.
 */
import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { acknowledgeQueueSendKeyGrant, queueEncryption, type DataKey } from './data-key.ts';
import type { Capability } from '#api/types';
import type { ExtractionPipeline } from './extraction-pipeline.ts';
import { deadLetterAgeAlarm } from './alarms/queue-alarms.ts';
import { withRunbook, type RunbookAnchor } from './alarms/runbook.ts';
import { pascal } from './http-api.ts';
import { InboundMail } from './messaging/inbound-mail.ts';
import { MailSending } from './messaging/mail-sending.ts';
import { MessageScheduler } from './messaging/scheduler.ts';
import type { MessagingSettings } from './messaging/settings.ts';
import { SmsMessaging } from './messaging/sms.ts';
import { SendWorkerSource } from './messaging/send-worker.ts';
import { ServiceFunction } from './service-function.ts';
import { MESSAGING_WORKER_TABLE_ACCESS, MESSAGING_WORKERS, type MessagingWorker } from './table-access.ts';

/** Timeout (s) and memory (MB) of each worker. */
const WORKER_SIZING: Readonly<Record<MessagingWorker, { timeout: number; memorySize: number }>> = {
  'email-events': { timeout: 30, memorySize: 256 },
  'sms-events': { timeout: 30, memorySize: 256 },
  // SES accepts received messages up to 40 MB; postal-mime holds one in memory.
  'inbound-email': { timeout: 60, memorySize: 1024 },
  'inbound-sms': { timeout: 30, memorySize: 256 },
  // Reads and queues: the send worker sends.
  'scheduled-send': { timeout: 60, memorySize: 512 },
  // Reads up to 10 MB of attachments, then one SES, SMTP or SMS send per record (a batch of up to 10).
  'message-send': { timeout: 60, memorySize: 512 },
  // Behind API Gateway: one GetItem, one UpdateItem, one presign.
  'public-links': { timeout: 10, memorySize: 256 },
};

/**
 * Workers that hold the S3 client (received mail, attachments, presigned downloads): bundled without the X-Ray SDK,
 * which would push them over the bundle budget (lib/service-function.ts `bundlesXraySdk`).
 */
const S3_WORKERS: readonly MessagingWorker[] = ['inbound-email', 'scheduled-send', 'public-links', 'message-send'];

/** Workers Lambda invokes asynchronously (everything but the HTTP-facing public-links). */
const ASYNC_WORKERS: readonly MessagingWorker[] = ['email-events', 'inbound-email', 'inbound-sms', 'scheduled-send', 'sms-events'];
/** Lambda's retries of a failed asynchronous invocation (its maximum) before the failure queue. */
export const ASYNC_RETRY_ATTEMPTS = 2;

/**
 * Alarm thresholds. SES reviews an account whose bounce rate reaches 5 % or whose complaint rate reaches 0.1 %
 * (SES Developer Guide, "Monitoring your sender reputation"); the alarms fire a little before, on the
 * account-level `Reputation.*` metrics SES publishes for free.
 */
export const MESSAGING_ALARM_THRESHOLDS = { bounceRate: 0.04, complaintRate: 0.0008, workerErrors: 3 } as const;

/** Inputs of `MessagingPipeline`. */
export interface MessagingPipelineProps {
  readonly table: dynamodb.ITable;
  /** Absolute path of `functions/<worker>/handler.ts`. */
  readonly entryOf: (worker: MessagingWorker) => string;
  /** The documents bucket's grants, and its access-log bucket (which the inbound-mail bucket logs to as well). */
  readonly extraction: ExtractionPipeline;
  readonly settings: MessagingSettings;
  /** Encrypts the failure queue, the scheduler's DLQ and the mail secrets (lib/data-key.ts). */
  readonly dataKey?: DataKey;
}

/** The messaging constructs, their workers, failure queue, alarms and dashboard row. */
export class MessagingPipeline extends Construct {
  readonly workers: Readonly<Record<MessagingWorker, ServiceFunction>>;
  /** Encrypts the SES events and inbound SMS topics, and the stack's alarm topic (lib/alarms/alarm-topic.ts). */
  readonly topicKey: kms.Key;
  /** Asynchronous worker invocations that failed after `ASYNC_RETRY_ATTEMPTS` retries (Lambda's destination records). */
  readonly failureQueue: sqs.Queue;
  private readonly dataKey?: DataKey;
  readonly mail: MailSending;
  /** Receipt rule set, inbound-mail bucket and notification; only when the deployment receives mail (`settings.receivesMail`). */
  readonly inboundMail?: InboundMail;
  readonly sms: SmsMessaging;
  readonly scheduler: MessageScheduler;
  /** The send worker's stream mapping and DLQ. */
  readonly sends: SendWorkerSource;
  readonly alarms: readonly cloudwatch.Alarm[];

  constructor(scope: Construct, id: string, props: MessagingPipelineProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const { settings, extraction } = props;

    this.failureQueue = new sqs.Queue(this, 'WorkerFailures', { ...queueEncryption(props.dataKey), enforceSSL: true, retentionPeriod: Duration.days(14) });
    Validations.of(this.failureQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        'This queue is itself a dead-letter destination (the on-failure destination of the messaging workers\' asynchronous ' +
        'invocations); a DLQ of a DLQ would only move the same records again. It is alarmed on any visible message and keeps them 14 days.',
    });

    const workers = {} as Record<MessagingWorker, ServiceFunction>;
    for (const name of MESSAGING_WORKERS) {
      const fn = new ServiceFunction(this, pascal(name), {
        entry: props.entryOf(name),
        serviceName: name,
        xraySdk: !S3_WORKERS.includes(name),
        description: `Messaging worker ${name} (functions/${name}/handler.ts)`,
        timeout: Duration.seconds(WORKER_SIZING[name].timeout),
        memorySize: WORKER_SIZING[name].memorySize,
        // public-links answers HTTP requests (a canary); the others are asynchronous.
        deployment: name === 'public-links' ? 'api' : 'worker',
      });
      // public-links lists a deal's disclosure packages (GSI1) for its portal; the other workers query no index.
      fn.bindTable(props.table, MESSAGING_WORKER_TABLE_ACCESS[name], { indexes: name === 'public-links' });
      workers[name] = fn;
    }
    this.workers = workers;
    this.dataKey = props.dataKey;
    for (const name of ASYNC_WORKERS) this.catchFailures(workers[name]);

    this.topicKey = new kms.Key(this, 'TopicKey', {
      description: 'Encrypts the SES events and inbound SMS topics (and the alarm topic: lib/alarms/alarm-topic.ts)',
      enableKeyRotation: true,
      // Topics hold messages for seconds; nothing outlives the stack.
      removalPolicy: RemovalPolicy.DESTROY,
      pendingWindow: Duration.days(7),
    });
    for (const service of ['ses.amazonaws.com', 'sms-voice.amazonaws.com']) {
      this.topicKey.addToResourcePolicy(
        new iam.PolicyStatement({
          principals: [new iam.ServicePrincipal(service)],
          actions: ['kms:GenerateDataKey*', 'kms:Decrypt'],
          resources: ['*'],
          conditions: { StringEquals: { 'aws:SourceAccount': stack.account } },
        }),
      );
    }

    this.mail = new MailSending(this, 'Mail', { settings, topicKey: this.topicKey, eventsHandler: workers['email-events'], dataKey: props.dataKey });
    if (settings.receivesMail) this.inboundMail = new InboundMail(this, 'InboundMail', { settings, accessLogsBucket: extraction.accessLogsBucket, handler: workers['inbound-email'] });
    this.sms = new SmsMessaging(this, 'Sms', { settings, topicKey: this.topicKey, inboundHandler: workers['inbound-sms'], eventsHandler: workers['sms-events'] });
    this.scheduler = new MessageScheduler(this, 'Scheduler', { target: workers['scheduled-send'], dataKey: props.dataKey });

    // Only the send worker holds the transports: email (SES, members' SMTP mailboxes), texts, attachments.
    this.sends = new SendWorkerSource(this, 'Sends', { table: props.table, worker: workers['message-send'], dataKey: props.dataKey });
    this.mail.grantSend(workers['message-send']);
    this.sms.grantSend(workers['message-send']);
    extraction.grantDocuments(workers['message-send'], { read: true, write: false });
    // scheduled-send queues email as the member who scheduled it.
    this.mail.addIdentityEnvironment(workers['scheduled-send']);
    // public-links presigns downloads of uploaded documents.
    extraction.grantDocuments(workers['public-links'], { read: true, write: false });

    this.alarms = this.createAlarms();
  }

  /**
   * Gives an API group function what its operations' messaging capabilities ask: `mail:send` (MailSending.grantSend),
   * `sms:send` (SmsMessaging.grantSend), `messages:queue` (the mail identities only: the send worker sends); no API
   * group manages schedules (the outbox relay does: lib/stack.ts); a function that sends or queues also gets `PUBLIC_BASE_URL`
   * (links in messages).
   * @param publicBaseUrl base URL of public links, without a trailing `/`
   */
  grantCapabilities(fn: ServiceFunction, uses: ReadonlySet<Capability>, publicBaseUrl: string): void {
    if (uses.has('mail:send')) this.mail.grantSend(fn);
    if (uses.has('messages:queue')) this.mail.addIdentityEnvironment(fn);
    if (uses.has('sms:send')) this.sms.grantSend(fn);
    if (uses.has('mail:send') || uses.has('sms:send') || uses.has('messages:queue')) fn.fn.addEnvironment('PUBLIC_BASE_URL', publicBaseUrl);
  }

  private createAlarms(): cloudwatch.Alarm[] {
    const anchors = {
      WorkerFailuresAlarm: 'messaging-worker-failures',
      SchedulerDlqAlarm: 'scheduler-dlq',
      SendDlqAlarm: 'message-send-dlq',
      SchedulerDlqUnreachableAlarm: 'scheduler-dlq-unreachable',
      ScheduleRequestsFailedAlarm: 'schedule-requests-failed',
      WorkerErrorsAlarm: 'messaging-worker-errors',
      SesBounceRateAlarm: 'ses-bounce-rate',
      SesComplaintRateAlarm: 'ses-complaint-rate',
    } as const satisfies Record<string, RunbookAnchor>;
    const alarm = (alarmId: keyof typeof anchors, description: string, metric: cloudwatch.IMetric, threshold = 0) =>
      new cloudwatch.Alarm(this, alarmId, {
        alarmDescription: withRunbook(this, description, anchors[alarmId]),
        metric,
        threshold,
        comparisonOperator: threshold === 0 ? cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD : cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
    const depth = (queue: sqs.IQueue) => queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' });
    const fifteenMinutes = { period: Duration.minutes(15), statistic: 'Sum' };
    return [
      alarm(
        'WorkerFailuresAlarm',
        'A messaging or workspace-lifecycle worker gave up on an event after its retries (an SES event, a received email or text, a scheduled send, a workspace purge or export). ' +
          'Each message in the failure queue holds the request payload and the error: fix the cause, then invoke the function with the payload again.',
        depth(this.failureQueue),
      ),
      alarm(
        'SchedulerDlqAlarm',
        'EventBridge Scheduler could not invoke a schedule\'s target (after 3 retries or 1 hour): scheduled-send for a scheduled message (it stays ' +
          'pending; payload {orgId, scheduledMessageId}), or workspace-purge / workspace-export (payload {orgId, deletionId} / {orgId, exportId}). ' +
          'The DLQ message names the target and holds the payload; invoke that function with it once fixed.',
        depth(this.scheduler.deadLetterQueue),
      ),
      alarm(
        'SendDlqAlarm',
        'The send worker gave up on queued messages (10 retries or 1 day): they stay queued on their threads and were not sent. ' +
          'Each DLQ message holds the stream positions of the records; fix the cause, then replay them (a replay never sends twice).',
        depth(this.sends.deadLetterQueue),
      ),
      alarm(
        'SchedulerDlqUnreachableAlarm',
        'EventBridge Scheduler failed to write a failed invocation to its dead-letter queue: a scheduled message may be lost. Check the scheduler role and the queue.',
        this.scheduler.group.metricFailedToBeSentToDLQ(undefined, fifteenMinutes),
      ),
      alarm(
        'ScheduleRequestsFailedAlarm',
        'The outbox relay (webhook fan-out) could not create a requested schedule after its retries: that scheduled message, reminder or export is failed ' +
          '(the user sees why), or that workspace deletion will not purge (status error). Check the relay\'s scheduler grant and the scheduler\'s quotas.',
        // The relay's EMF metric (shared/use-cases/schedule-relay.ts; namespace and `service` dimension: shared/observability/powertools.ts).
        new cloudwatch.Metric({ namespace: 'TransactionCoordination', metricName: 'ScheduleRequestsFailed', dimensionsMap: { service: 'webhook-fanout' }, ...fifteenMinutes }),
      ),
      alarm(
        'WorkerErrorsAlarm',
        `Messaging workers: >= ${MESSAGING_ALARM_THRESHOLDS.workerErrors} errors (crash, timeout, throw) in 15 min. Asynchronous ones are retried, then go to the failure queue; ` +
          'public-links errors are 5xx pages for people opening shared links.',
        new cloudwatch.MathExpression({
          expression: MESSAGING_WORKERS.map((_w, i) => `e${i}`).join(' + '),
          usingMetrics: Object.fromEntries(MESSAGING_WORKERS.map((w, i) => [`e${i}`, this.workers[w].fn.metricErrors(fifteenMinutes)])),
          period: Duration.minutes(15),
          label: 'worker errors',
        }),
        MESSAGING_ALARM_THRESHOLDS.workerErrors,
      ),
      alarm(
        'SesBounceRateAlarm',
        `SES account bounce rate >= ${MESSAGING_ALARM_THRESHOLDS.bounceRate * 100}% (SES reviews accounts at 5%). Check the bounced addresses on the threads (they are suppressed) and the lists they came from.`,
        sesReputation('Reputation.BounceRate'),
        MESSAGING_ALARM_THRESHOLDS.bounceRate,
      ),
      alarm(
        'SesComplaintRateAlarm',
        `SES account complaint rate >= ${MESSAGING_ALARM_THRESHOLDS.complaintRate * 100}% (SES reviews accounts at 0.1%). Recipients marked mail as spam: check who sends what to whom.`,
        sesReputation('Reputation.ComplaintRate'),
        MESSAGING_ALARM_THRESHOLDS.complaintRate,
      ),
      deadLetterAgeAlarm(this, 'DlqAgeAlarm', [
        { label: 'messaging worker failure queue', queue: this.failureQueue },
        { label: 'scheduler DLQ', queue: this.scheduler.deadLetterQueue },
        { label: 'send worker DLQ', queue: this.sends.deadLetterQueue },
      ]),
    ];
  }

  /** One dashboard row (24 wide): dead-letter queues, scheduled sends, worker errors, SES reputation. */
  dashboardWidgets(): cloudwatch.IWidget[] {
    const minute = { period: Duration.minutes(1) };
    const sum = { ...minute, statistic: 'Sum' };
    const group = this.scheduler.group;
    return [
      new cloudwatch.GraphWidget({
        title: 'Messaging dead-letter queues (messages)',
        width: 6,
        left: [
          this.failureQueue.metricApproximateNumberOfMessagesVisible({ ...minute, statistic: 'Maximum', label: 'worker failures' }),
          this.scheduler.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ ...minute, statistic: 'Maximum', label: 'scheduler DLQ' }),
        ],
        leftYAxis: { min: 0, showUnits: false },
      }),
      new cloudwatch.GraphWidget({
        title: 'Scheduled sends (count)',
        width: 6,
        left: [group.metricAttempts({ ...sum, label: 'invocations' }), group.metricTargetErrors({ ...sum, label: 'target errors' }), group.metricSentToDLQ({ ...sum, label: 'sent to DLQ' })],
        leftYAxis: { min: 0, showUnits: false },
      }),
      new cloudwatch.GraphWidget({
        title: 'Messaging workers: errors (count)',
        width: 6,
        left: MESSAGING_WORKERS.map((w) => this.workers[w].fn.metricErrors({ ...sum, label: w })),
        leftYAxis: { min: 0, showUnits: false },
      }),
      new cloudwatch.GraphWidget({
        title: 'SES reputation (rate, account)',
        width: 6,
        left: [sesReputation('Reputation.BounceRate', 'bounce'), sesReputation('Reputation.ComplaintRate', 'complaint')],
        leftAnnotations: [
          { value: MESSAGING_ALARM_THRESHOLDS.bounceRate, label: 'bounce alarm' },
          { value: MESSAGING_ALARM_THRESHOLDS.complaintRate, label: 'complaint alarm' },
        ],
        leftYAxis: { min: 0, showUnits: false },
      }),
    ];
  }

  /**
   * Gives an asynchronously invoked function (S3 notification, SNS, EventBridge Scheduler) Lambda's two retries
   * and then this pipeline's failure queue as its on-failure destination: the record keeps the event
   * (`requestPayload`) for a replay (docs/runbook.md#messaging-worker-failures), and the queue is alarmed.
   */
  catchFailures(fn: ServiceFunction): void {
    fn.live.configureAsyncInvoke({ retryAttempts: ASYNC_RETRY_ATTEMPTS, maxEventAge: Duration.hours(6), onFailure: new SqsDestination(this.failureQueue) });
    if (this.dataKey) acknowledgeQueueSendKeyGrant(fn, 'its on-failure destination, the worker-failures queue');
  }
}

/** An account-level SES reputation metric (no dimensions), hourly maximum. */
function sesReputation(metricName: string, label?: string): cloudwatch.Metric {
  return new cloudwatch.Metric({ namespace: 'AWS/SES', metricName, statistic: 'Maximum', period: Duration.hours(1), label });
}
