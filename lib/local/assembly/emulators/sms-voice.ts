/**
 * End User Messaging SMS (`pinpoint-sms-voice-v2`) stand-in: `SendTextMessage` appends the text to the same JSON
 * lines sink the local runtime uses (shared/ports/sms/local.ts `SinkText`), so `npm run sms` and the tests read
 * one format. Other operations answer `ValidationException`.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { DEFAULT_LOCAL_SMS_FROM, type SinkText } from '#ports/sms/local';
import { jsonError, jsonReply, type Backend } from '../aws-gateway.ts';

export function smsVoiceEmulator(sinkFile: string): Backend {
  mkdirSync(path.dirname(sinkFile), { recursive: true });
  return async (req) => {
    if (req.target !== 'SendTextMessage') return jsonError('ValidationException', `sms-voice ${req.target} is not emulated`);
    const body = JSON.parse(req.body.toString('utf8')) as { DestinationPhoneNumber: string; OriginationIdentity?: string; MessageBody: string };
    const messageId = randomUUID();
    const text: SinkText = { id: messageId, from: body.OriginationIdentity ?? DEFAULT_LOCAL_SMS_FROM, to: body.DestinationPhoneNumber, body: body.MessageBody, sentAt: new Date().toISOString() };
    appendFileSync(sinkFile, `${JSON.stringify(text)}\n`);
    return jsonReply({ MessageId: messageId });
  };
}
