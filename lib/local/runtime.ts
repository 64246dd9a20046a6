/**
 * The local runtime, composable: DynamoDB Local (persistent under `dataDir`, or an existing endpoint), the
 * table from the CDK definition, local-aws-sqs with the webhook queue and its DLQ, the stream pollers
 * (outbox → fan-out handler; `message.queued` and `service_email.queued` → send worker; each checkpointed under `dataDir`), the SQS poller (→ delivery handler), s3rver for
 * documents (ObjectCreated under `org/` → the upload handler), the extraction state machine's own definition
 * run by aws-local-stepfunctions (OCR by pdf.js/tesseract.js), the report-builder worker invoked in-process
 * (lib/local/report-builder.ts), the HTTP server (→ API handlers), and the messaging
 * stand-ins (SMTP server, SMS sink, scheduler: lib/local/messaging.ts). The local queue lives in memory, so it
 * journals what is sent to it under `dataDir` and on start re-enqueues the deliveries of that journal still
 * pending in the table. `npm start` and the end-to-end tests both use it.
 */
import path from 'node:path';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { startDynamoDbLocal, type DynamoDbLocal } from '#lib/local/dynamodb-local';
import { ensureTable } from '#lib/local/ensure-table';
import { startLocalApi, type LocalApi } from '#lib/local/http-server';
import { startLocalSqs, type LocalSqs } from '#lib/local/sqs-local';
import { invokeWebhookFanout, startStreamPoller, type StreamPoller } from '#lib/local/stream-poller';
import { invokeMessageSend, isQueuedMessageInsert, loadMessageSend } from '#lib/local/message-send';
import { invokeWebhookDelivery, startSqsPoller, WEBHOOK_DELIVERY_POLLING, type SqsPoller } from '#lib/local/sqs-poller';
import { requeuePendingDeliveries } from '#lib/local/pending-deliveries';
import { invokeDocumentUploaded, startLocalS3, type LocalS3 } from '#lib/local/s3-local';
import { documentUploadRecords, startLocalExtractionRunner } from '#lib/local/step-functions';
import { startLocalReportBuilder } from '#lib/local/report-builder';
import { inboundMailRecords, invokeInboundEmail, startLocalMessaging, type LocalMessaging } from '#lib/local/messaging';
import { resetDbClient } from '#db/client';
import { resetSqsClient } from '#ports/sqs';
import { resetBlobStore } from '#ports/blob-store';

export interface LocalRuntimeOptions {
  /** Where DynamoDB data (unless `dynamoEndpoint`) and the stream checkpoint live; a temp dir when omitted. */
  dataDir?: string;
  /** Use this DynamoDB Local instead of starting one (tests). */
  dynamoEndpoint?: string;
  tableName: string;
  /** HTTP port on 127.0.0.1; 0 picks a free one. */
  port: number;
  /** Stream poll pause right after records were found, ms (default 50); it doubles while idle, up to 250 ms. */
  streamIntervalMs?: number;
  /** How often the local scheduler looks for due schedules, ms (default 1000). */
  schedulerIntervalMs?: number;
  /** Port of the local SMTP server on 127.0.0.1 (default: a free one). */
  smtpPort?: number;
}

export interface LocalRuntime {
  baseUrl: string;
  /** Where its files are (mail, texts, schedules, checkpoints; DynamoDB data unless `dynamoEndpoint` was given). */
  dataDir: string;
  dynamoEndpoint: string;
  sqs: LocalSqs;
  s3: LocalS3;
  api: LocalApi;
  /** Local mail server, SMS sink and scheduler. */
  messaging: LocalMessaging;
  /** Deliveries re-enqueued at start. */
  requeued: number;
  /** Stops everything it started (DynamoDB Local only when it started it), in dependency order. */
  stop(): Promise<void>;
}

export async function startLocalRuntime(opts: LocalRuntimeOptions): Promise<LocalRuntime> {
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(tmpdir(), 'tcs-local-'));
  mkdirSync(dataDir, { recursive: true });
  let ddb: DynamoDbLocal | undefined;
  const dynamoEndpoint = opts.dynamoEndpoint ?? (ddb = await startDynamoDbLocal({ dataDir: path.join(dataDir, 'dynamodb') })).endpoint;
  await ensureTable(dynamoEndpoint, opts.tableName);
  const deliveryJournal = path.join(dataDir, `sqs-deliveries-${opts.tableName}.jsonl`);
  const sqs = await startLocalSqs({ journalFile: deliveryJournal });
  const s3 = await startLocalS3({
    directory: path.join(dataDir, 's3'),
    // Only `org/` keys, like the deployed notification's prefix filter: the pipeline's `ocr/` writes stay out.
    onObjectCreated: (event) => {
      const uploads = documentUploadRecords(event);
      const mail = inboundMailRecords(event);
      return Promise.all([uploads && invokeDocumentUploaded(uploads), mail && invokeInboundEmail(mail)]);
    },
  });
  Object.assign(process.env, {
    S3_ENDPOINT: s3.endpoint,
    DOCUMENTS_BUCKET: s3.bucket,
    TABLE_NAME: opts.tableName,
    DYNAMODB_ENDPOINT: dynamoEndpoint,
    SQS_ENDPOINT: sqs.endpoint,
    WEBHOOK_QUEUE_URL: sqs.queueUrl,
    LOCAL_MODE: 'true',
  });
  resetDbClient();
  resetSqsClient();
  resetBlobStore();
  const extraction = startLocalExtractionRunner();
  const reports = startLocalReportBuilder();
  const requeued = await requeuePendingDeliveries(deliveryJournal, sqs.setReceiveCount);
  const streams: StreamPoller = startStreamPoller({
    endpoint: dynamoEndpoint,
    tableName: opts.tableName,
    checkpointFile: path.join(dataDir, `stream-checkpoint-${opts.tableName}.json`),
    invoke: invokeWebhookFanout,
    intervalMs: opts.streamIntervalMs ?? 50,
  });
  // The send worker's own mapping on the same stream (filtered to `message.queued`, `service_email.queued`), with its own checkpoint. Its
  // handler loads in the background meanwhile (a failure is retried by the first invocation).
  loadMessageSend().catch(() => undefined);
  const sends: StreamPoller = startStreamPoller({
    endpoint: dynamoEndpoint,
    tableName: opts.tableName,
    checkpointFile: path.join(dataDir, `stream-checkpoint-sends-${opts.tableName}.json`),
    invoke: invokeMessageSend,
    filter: isQueuedMessageInsert,
    intervalMs: opts.streamIntervalMs ?? 50,
  });
  const deliveries: SqsPoller = startSqsPoller({ queueUrl: sqs.queueUrl, invoke: invokeWebhookDelivery, ...WEBHOOK_DELIVERY_POLLING });
  const api = await startLocalApi({ port: opts.port });
  const messaging = await startLocalMessaging({ dataDir, tableName: opts.tableName, baseUrl: api.baseUrl, schedulerIntervalMs: opts.schedulerIntervalMs, smtpPort: opts.smtpPort });
  return {
    baseUrl: api.baseUrl,
    dataDir,
    dynamoEndpoint,
    sqs,
    s3,
    api,
    messaging,
    requeued,
    async stop() {
      await api.close();
      await messaging.stop();
      await s3.idle();
      await extraction.stop();
      reports.stop();
      await s3.stop();
      await streams.stop();
      await sends.stop();
      await deliveries.stop();
      await sqs.stop();
      await ddb?.stop();
    },
  };
}
