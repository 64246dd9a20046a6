/** Local push transport: appends each push to `LOCAL_PUSH_SINK` (JSON lines `{id, deviceId, platform, title, body, data, sentAt}`). */
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { PushSender } from '#ports/push';
import { config } from '#ports/config';

/** @throws Error on first send when `LOCAL_PUSH_SINK` is unset */
export function localPush(): PushSender {
  return {
    async send(to, m) {
      const file = config.localPushSink;
      const id = randomUUID();
      mkdirSync(path.dirname(file), { recursive: true });
      appendFileSync(file, JSON.stringify({ id, deviceId: to.deviceId, platform: to.platform, title: m.title, body: m.body, data: m.data, sentAt: new Date().toISOString() }) + '\n');
      return id;
    },
  };
}
