/**
 * SNS mobile push: `CreatePlatformEndpoint` for the device's token on `PUSH_PLATFORM_APPLICATION_ARN` (idempotent for
 * a token already registered with the same attributes), then `Publish` with a per-platform message (`APNS`, `GCM`,
 * `default`; SNS "Send custom platform-specific payloads"). Unset platform application: push is off.
 */
import { CreatePlatformEndpointCommand, PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import type { PushSender } from '#ports/push';
import { config } from '#ports/config';

let client: SNSClient | undefined;
const sns = () => (client ??= new SNSClient({}));

/** The SNS push sender. */
export function snsPush(): PushSender {
  return {
    async send(to, m) {
      const app = config.pushPlatformApplicationArn;
      if (!app) return null;
      const endpoint = await sns().send(new CreatePlatformEndpointCommand({ PlatformApplicationArn: app, Token: to.pushToken, CustomUserData: to.deviceId }));
      const apns = JSON.stringify({ aps: { alert: { title: m.title, body: m.body } }, data: m.data });
      const gcm = JSON.stringify({ notification: { title: m.title, body: m.body }, data: m.data });
      const out = await sns().send(
        new PublishCommand({ TargetArn: endpoint.EndpointArn, MessageStructure: 'json', Message: JSON.stringify({ default: `${m.title}: ${m.body}`, APNS: apns, APNS_SANDBOX: apns, GCM: gcm }) }),
      );
      return out.MessageId ?? null;
    },
  };
}
