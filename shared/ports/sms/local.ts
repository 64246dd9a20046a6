/**
 * Local SMS transport: appends each text to the local runtime's sink file (`LOCAL_SMS_SINK`, JSON lines
 * `{id, from, to, body, sentAt}`), where `npm run sms -- list` and `npm run outbox` list them (lib/local/outbox.ts).
 * The sending number is `LOCAL_SMS_FROM` (default `+15550100000`, a fictitious 555 number).
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { SmsSender } from '#ports/sms';
import { config } from '#ports/config';

/** The local runtime's own number when `LOCAL_SMS_FROM` is unset (555-01xx numbers are reserved for fiction). */
export const DEFAULT_LOCAL_SMS_FROM = '+15550100000';

/** One line of the sink file. */
export interface SinkText {
  id: string;
  from: string;
  to: string;
  body: string;
  /** ISO 8601. */
  sentAt: string;
}

/** @throws Error on first send when `LOCAL_SMS_SINK` is unset */
export function localSms(): SmsSender {
  return {
    // Nothing stands between the local sink and the "phone": the service answers keywords itself.
    answersKeywords: false,
    async send(sms) {
      const file = config.localSmsSink;
      const id = randomUUID();
      const from = config.localSmsFrom ?? DEFAULT_LOCAL_SMS_FROM;
      mkdirSync(path.dirname(file), { recursive: true });
      appendFileSync(file, JSON.stringify({ id, from, to: sms.to, body: sms.body, sentAt: new Date().toISOString() } satisfies SinkText) + '\n');
      return { provider: 'local', providerMessageId: id, from };
    },
  };
}
