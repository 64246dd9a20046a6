/**
 * Simulated inbound texts for the local runtime (`npm run sms -- reply`, tests): the SNS event AWS End User
 * Messaging's two-way SMS publishes (one record whose message is the notification JSON, AWS End User Messaging SMS
 * User Guide, "Two-way SMS messaging"), handed to the real functions/inbound-sms handler, and a JSON-lines log of what
 * was simulated so `npm run sms -- list` can show both directions.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { SNSEvent } from 'aws-lambda';
import type { InboundSmsNotification } from '#use-cases/messaging/inbound-texts';
import type { InboundSmsOutcome } from '#use-cases/messaging/receive-sms';

/** A text someone sends to the service's number. Numbers are E.164. */
export interface SimulatedText {
  from: string;
  to: string;
  body: string;
}

/** Topic ARN the local events name (no topic exists locally). */
const LOCAL_TOPIC_ARN = 'arn:aws:sns:local:000000000000:tcs-inbound-sms';

/**
 * The SNS event of one inbound text, as two-way SMS delivers it to Lambda.
 * @param opts.id the inbound message id (default random; a repeated id is a redelivery)
 * @param opts.at the time SNS stamps (default now)
 */
export function inboundSmsEvent(text: SimulatedText, opts: { id?: string; at?: Date } = {}): SNSEvent {
  const inboundMessageId = opts.id ?? randomUUID();
  const notification: InboundSmsNotification = {
    originationNumber: text.from,
    destinationNumber: text.to,
    messageKeyword: 'KEYWORD_000000000000',
    messageBody: text.body,
    inboundMessageId,
  };
  return {
    Records: [
      {
        EventSource: 'aws:sns',
        EventVersion: '1.0',
        EventSubscriptionArn: `${LOCAL_TOPIC_ARN}:${randomUUID()}`,
        Sns: {
          Type: 'Notification',
          MessageId: randomUUID(),
          TopicArn: LOCAL_TOPIC_ARN,
          Subject: '',
          Message: JSON.stringify(notification),
          Timestamp: (opts.at ?? new Date()).toISOString(),
          SignatureVersion: '1',
          Signature: 'local',
          SigningCertUrl: 'https://sns.local/cert.pem',
          UnsubscribeUrl: 'https://sns.local/unsubscribe',
          MessageAttributes: {},
        },
      },
    ],
  };
}

/** One line of the simulated-inbound log. */
export interface InboundLogLine extends SimulatedText {
  id: string;
  /** ISO 8601. */
  receivedAt: string;
  /** What the service did with it (`threaded`, `opted_out`, …). */
  outcome: InboundSmsOutcome;
}

/** Appends a simulated text and its outcome to `file`. */
export function logInboundText(file: string, line: InboundLogLine): void {
  mkdirSync(path.dirname(file), { recursive: true });
  appendFileSync(file, JSON.stringify(line) + '\n');
}
