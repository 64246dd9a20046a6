/**
 * SNS stand-in (query protocol): `Publish` and `CreatePlatformEndpoint` are recorded and answered, nothing is
 * delivered (device pushes and alarm mail have no local receiver). Published messages are kept for tests.
 */
import { randomUUID } from 'node:crypto';
import type { Backend } from '../aws-gateway.ts';

export interface SnsEmulator {
  backend: Backend;
  published: Array<{ target: string; message: string }>;
}

export function snsEmulator(): SnsEmulator {
  const published: SnsEmulator['published'] = [];
  const xml = (action: string, result: string) => ({
    status: 200,
    headers: { 'content-type': 'text/xml' },
    body: `<${action}Response xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><${action}Result>${result}</${action}Result><ResponseMetadata><RequestId>${randomUUID()}</RequestId></ResponseMetadata></${action}Response>`,
  });
  return {
    published,
    backend: async (req) => {
      const form = new URLSearchParams(req.body.toString('utf8'));
      const action = form.get('Action') ?? '';
      if (action === 'Publish') {
        published.push({ target: form.get('TopicArn') ?? form.get('TargetArn') ?? '', message: form.get('Message') ?? '' });
        return xml(action, `<MessageId>${randomUUID()}</MessageId>`);
      }
      if (action === 'CreatePlatformEndpoint') return xml(action, `<EndpointArn>${form.get('PlatformApplicationArn')}/${randomUUID()}</EndpointArn>`);
      return { status: 400, headers: { 'content-type': 'text/xml' }, body: `<ErrorResponse><Error><Type>Sender</Type><Code>InvalidAction</Code><Message>${action} is not emulated</Message></Error></ErrorResponse>` };
    },
  };
}
