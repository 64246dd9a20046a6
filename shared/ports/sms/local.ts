/**
 * Local SMS transport: appends each text to the local runtime's sink file (`LOCAL_SMS_SINK`, JSON lines
 * `{id, from, to, body, sentAt}`), where `npm run sms` lists them (lib/local/sms-sink.ts). The sending number is
 * `LOCAL_SMS_FROM` (default `+15550100000`, a fictitious 555 number).
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { SmsSender } from '#ports/sms';

/** @throws Error on first send when `LOCAL_SMS_SINK` is unset */
export function localSms(): SmsSender {
  return {
    // Nothing stands between the local sink and the "phone": the service answers keywords itself.
    answersKeywords: false,
    async send(sms) {
      const file = process.env.LOCAL_SMS_SINK;
      if (!file) throw new Error('LOCAL_SMS_SINK is not set');
      const id = randomUUID();
      const from = process.env.LOCAL_SMS_FROM ?? '+15550100000';
      mkdirSync(path.dirname(file), { recursive: true });
      appendFileSync(file, JSON.stringify({ id, from, to: sms.to, body: sms.body, sentAt: new Date().toISOString() }) + '\n');
      return { provider: 'local', providerMessageId: id, from };
    },
  };
}
