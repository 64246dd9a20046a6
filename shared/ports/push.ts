/**
 * The push port: sends a notification to a member's registered device. In AWS (`PUSH_TRANSPORT=aws`, the default)
 * through Amazon SNS mobile push: the device's token becomes a platform endpoint of the platform application
 * `PUSH_PLATFORM_APPLICATION_ARN` (`CreatePlatformEndpoint` returns the existing endpoint for a known token), then
 * `Publish` to it; with no platform application configured, push is off and nothing is sent. Locally
 * (`PUSH_TRANSPORT=local`) each push is appended to the sink file `LOCAL_PUSH_SINK` (JSON lines).
 */
import { config } from '#ports/config';

/** What a push carries. */
export interface PushMessage {
  title: string;
  body: string;
  data: Record<string, unknown>;
}

/** The device a push goes to. */
export interface PushTarget {
  deviceId: string;
  platform: string | null;
  pushToken: string;
}

export interface PushSender {
  /** @returns the provider's message id, or null when push is not configured (nothing sent) */
  send(to: PushTarget, message: PushMessage): Promise<string | null>;
}

let instance: Promise<PushSender> | undefined;

/** The push sender for this environment (adapters loaded on first use). */
export function pushSender(): Promise<PushSender> {
  instance ??= config.localPush ? import('#ports/push/local').then((m) => m.localPush()) : import('#ports/push/aws').then((m) => m.snsPush());
  return instance;
}

/** Drops the cached sender (tests, the local runtime). */
export function resetPushSender(): void {
  instance = undefined;
}
