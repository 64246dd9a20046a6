/**
 * The local runtime's messaging stand-ins, started together: the SMTP server (every outbound email as an `.eml`
 * under `<dataDir>/mail`; mail to the reply domain stored under `inbound/` in the local S3, whose notification
 * threads it, as SES's receipt rule → S3 → Lambda does), the SMS sink (`<dataDir>/sms/outbound.jsonl`), and the
 * scheduler (schedules in `<dataDir>/schedules-<table>.json`, fired by the request clock). Sets the environment the
 * mail, SMS and scheduler ports read, so the handlers use them.
 */
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Context, S3Event } from 'aws-lambda';
import { invokeLocally } from '#lib/local/invoke';
import { startLocalSmtp, type LocalSmtp } from '#lib/local/smtp-sink';
import { startLocalScheduler, type LocalSchedulerPoller } from '#lib/local/scheduler';
import { putObject } from '#ports/blob-store';
import { resetMailer } from '#ports/mail/transport';
import { resetPlainMailer } from '#ports/plain-mailer';
import { resetSmsSender } from '#ports/sms/transport';
import { resetPushSender } from '#ports/push';
import { resetScheduler } from '#ports/scheduler';

/** Domain of the deals' reply addresses locally (`.localhost` never resolves outside the machine). */
export const LOCAL_INBOUND_DOMAIN = 'reply.tcs.localhost';
/** The service's sender locally. */
export const LOCAL_MAIL_FROM = 'deals@tcs.localhost';

/** Where the local runtime keeps messaging files under its data directory. */
export interface LocalMessagingPaths {
  /** The SMTP server's `.eml` (+ `.json` envelope) files. */
  mailDir: string;
  /** Texts the service sent (JSON lines, shared/ports/sms/local.ts). */
  smsSink: string;
  /** Texts simulated as received (`npm run sms -- reply`), JSON lines. */
  smsInbound: string;
}

/** The messaging files of `dataDir` (`npm start`'s `.data`, or a test's directory). */
export function localMessagingPaths(dataDir: string): LocalMessagingPaths {
  return { mailDir: path.join(dataDir, 'mail'), smsSink: path.join(dataDir, 'sms', 'outbound.jsonl'), smsInbound: path.join(dataDir, 'sms', 'inbound.jsonl') };
}

export interface LocalMessaging {
  smtp: LocalSmtp;
  scheduler: LocalSchedulerPoller;
  /** The SMS sink file. */
  smsSink: string;
  /** The schedule store. */
  scheduleStore: string;
  /** Resolves when inbound mail handed off so far has been threaded. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/** Inbound-email notifications: `ObjectCreated` of `inbound/` keys, as the deployed notification filters them. */
export function inboundMailRecords(event: S3Event): S3Event | undefined {
  const Records = (event.Records ?? []).filter((r) => r.s3?.object?.key?.startsWith('inbound/'));
  return Records.length ? { Records } : undefined;
}

/** Hands an S3 notification of received mail to the real `functions/inbound-email` handler. */
export async function invokeInboundEmail(event: S3Event): Promise<unknown> {
  const { handler } = await import('#functions/inbound-email/handler');
  return invokeLocally(handler as (e: S3Event, c: Context) => Promise<unknown>, event, 'inbound-email');
}

/**
 * @param opts.dataDir where mail, texts and schedules are kept
 * @param opts.tableName names the schedule store, so runtimes on one data dir but different tables stay apart
 * @param opts.baseUrl the API's base URL (share links point at it)
 * @param opts.smtpPort the SMTP server's port on 127.0.0.1 (default: a free one)
 */
export async function startLocalMessaging(opts: { dataDir: string; tableName: string; baseUrl?: string; schedulerIntervalMs?: number; smtpPort?: number }): Promise<LocalMessaging> {
  const { mailDir, smsSink } = localMessagingPaths(opts.dataDir);
  const scheduleStore = path.join(opts.dataDir, `schedules-${opts.tableName}.json`);
  const smtp = await startLocalSmtp({
    directory: mailDir,
    inboundDomain: LOCAL_INBOUND_DOMAIN,
    // Stored where SES's receipt rule would store it; the bucket's notification does the rest.
    onInbound: (raw) => putObject(`inbound/${randomUUID()}`, raw, 'message/rfc822'),
    port: opts.smtpPort,
  });
  Object.assign(process.env, {
    MAIL_TRANSPORT: 'local',
    LOCAL_SMTP_URL: smtp.url,
    INBOUND_MAIL_DOMAIN: LOCAL_INBOUND_DOMAIN,
    MAIL_FROM_ADDRESS: LOCAL_MAIL_FROM,
    SMS_TRANSPORT: 'local',
    LOCAL_SMS_SINK: smsSink,
    PUSH_TRANSPORT: 'local',
    LOCAL_PUSH_SINK: path.join(opts.dataDir, 'push', 'outbound.jsonl'),
    SCHEDULER: 'local',
    LOCAL_SCHEDULE_STORE: scheduleStore,
    ...(opts.baseUrl ? { PUBLIC_BASE_URL: opts.baseUrl } : {}),
  });
  resetMailer();
  resetPlainMailer();
  resetSmsSender();
  resetPushSender();
  resetScheduler();
  const scheduler = startLocalScheduler({ file: scheduleStore, intervalMs: opts.schedulerIntervalMs });
  return {
    smtp,
    scheduler,
    smsSink,
    scheduleStore,
    idle: () => smtp.idle(),
    async stop() {
      await scheduler.stop();
      await smtp.stop();
    },
  };
}
