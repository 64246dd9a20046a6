/**
 * The messaging context keys (lib/messaging/settings.ts): defaults, derived identities, and the synth-time refusals;
 * and, in a bare stack (no full synth), what the SMS grant names when no origination identity is configured.
 */
import { describe, expect, it } from 'vitest';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { originationArn, parseMessagingSettings } from '#lib/messaging/settings';
import { SmsMessaging } from '#lib/messaging/sms';
import type { ServiceFunction } from '#lib/service-function';

const PHONE_ID = 'phone-0123456789abcdef0123456789abcdef';

describe('parseMessagingSettings', () => {
  it('defaults to placeholder addresses under example.com, the Default opt-out list, no identity, no number, no receiving', () => {
    expect(parseMessagingSettings({})).toEqual({
      mailDomain: undefined,
      mailFromAddress: 'deals@example.com',
      inboundMailDomain: 'reply.example.com',
      receivesMail: false,
      mailSendIdentities: ['deals@example.com', 'example.com'],
      smsOriginationIdentity: undefined,
      smsOptOutList: 'Default',
      publicBaseUrl: undefined,
    });
  });

  it('receives mail only when mailDomain or inboundMailDomain is given', () => {
    expect(parseMessagingSettings({ mailDomain: 'hillcountry.example' }).receivesMail).toBe(true);
    expect(parseMessagingSettings({ inboundMailDomain: 'reply.hillcountry.example' }).receivesMail).toBe(true);
    expect(parseMessagingSettings({ mailFromAddress: 'tc@hillcountry.example', inboundMailDomain: ' ' }).receivesMail).toBe(false);
  });

  it('derives the sender and the inbound domain from mailDomain, and names every identity a send can be authorized by', () => {
    const s = parseMessagingSettings({ mailDomain: 'HillCountry.example', mailSenderIdentities: ' agents@partner.example , other.example ' });
    expect(s.mailFromAddress).toBe('deals@hillcountry.example');
    expect(s.inboundMailDomain).toBe('reply.hillcountry.example');
    expect(s.mailSendIdentities).toEqual(['hillcountry.example', 'deals@hillcountry.example', 'agents@partner.example', 'partner.example', 'other.example']);
  });

  it('takes explicit values over the derived ones, and drops a trailing slash of publicBaseUrl', () => {
    const s = parseMessagingSettings({ mailDomain: 'a.example', mailFromAddress: 'tc@b.example', inboundMailDomain: 'in.c.example', publicBaseUrl: 'https://deals.a.example/' });
    expect(s).toMatchObject({ mailFromAddress: 'tc@b.example', inboundMailDomain: 'in.c.example', publicBaseUrl: 'https://deals.a.example' });
    expect(s.mailSendIdentities).toEqual(['a.example', 'tc@b.example', 'b.example']);
  });

  it('refuses malformed values, naming the context key', () => {
    expect(() => parseMessagingSettings({ mailDomain: 'not a domain' })).toThrow(/mailDomain/);
    expect(() => parseMessagingSettings({ mailFromAddress: 'deals' })).toThrow(/mailFromAddress/);
    expect(() => parseMessagingSettings({ inboundMailDomain: 'reply_' })).toThrow(/inboundMailDomain/);
    expect(() => parseMessagingSettings({ mailSenderIdentities: 'ok.example,bad@' })).toThrow(/mailSenderIdentities/);
    expect(() => parseMessagingSettings({ smsOriginationIdentity: '+15125550143' })).toThrow(/smsOriginationIdentity.*ARN/);
    expect(() => parseMessagingSettings({ smsOptOutList: 'no spaces' })).toThrow(/smsOptOutList/);
    expect(() => parseMessagingSettings({ publicBaseUrl: 'http://plain.example' })).toThrow(/publicBaseUrl/);
  });

  it('accepts origination ARNs as given and resolves ids in the stack account and region', () => {
    const stack = new Stack(new App(), 'S', { env: { account: '111122223333', region: 'us-east-1' } });
    const arn = 'arn:aws:sms-voice:us-east-1:111122223333:pool/pool-0123456789abcdef0123456789abcdef';
    expect(originationArn(stack, parseMessagingSettings({ smsOriginationIdentity: arn }))).toBe(arn);
    // The partition stays a token (`arn:${AWS::Partition}:…`).
    expect(originationArn(stack, parseMessagingSettings({ smsOriginationIdentity: PHONE_ID }))).toMatch(new RegExp(`^arn:.+:sms-voice:us-east-1:111122223333:phone-number/${PHONE_ID}$`));
    expect(originationArn(stack, parseMessagingSettings({ smsOriginationIdentity: 'arn:aws:sms-voice:us-east-1:111122223333:sender-id/TCS/GB' }))).toMatch(/sender-id\/TCS\/GB$/);
    expect(originationArn(stack, parseMessagingSettings({}))).toBeUndefined();
  });
});

describe('SmsMessaging.grantSend without an origination identity', () => {
  it('names only the configuration set and sets no SMS_ORIGINATION_IDENTITY (sends answer 503 until one is configured)', () => {
    const stack = new Stack(new App(), 'S', { env: { account: '111122223333', region: 'us-east-1' } });
    // Inline functions stand in for ServiceFunctions (only `.fn` and `.live` are used), so no asset is hashed.
    const fnOf = (id: string) => {
      const fn = new lambda.Function(stack, id, { runtime: lambda.Runtime.NODEJS_22_X, handler: 'index.handler', code: lambda.Code.fromInline('exports.handler=async()=>1') });
      return { fn, live: fn } as unknown as ServiceFunction;
    };
    const handler = fnOf('InboundSms');
    const sender = fnOf('Sender');
    const sms = new SmsMessaging(stack, 'Sms', { settings: parseMessagingSettings({}), topicKey: new kms.Key(stack, 'Key'), inboundHandler: handler, eventsHandler: fnOf('SmsEvents') });
    sms.grantSend(sender);
    const template = Template.fromStack(stack).toJSON();
    const senderFn = Object.values(template.Resources as Record<string, { Type: string; Properties: Record<string, any> }>).find(
      (r) => r.Type === 'AWS::Lambda::Function' && JSON.stringify(r.Properties.Role).includes('SenderServiceRole'),
    )!;
    expect(Object.keys(senderFn.Properties.Environment.Variables)).toEqual(['SMS_CONFIGURATION_SET']);
    const statements = Object.values(template.Resources as Record<string, { Type: string; Properties: Record<string, any> }>)
      .filter((r) => r.Type === 'AWS::IAM::Policy' && JSON.stringify(r.Properties.Roles).includes('SenderServiceRole'))
      .flatMap((r) => r.Properties.PolicyDocument.Statement as { Action: string; Resource: unknown }[]);
    expect(statements.filter((st) => st.Action === 'sms-voice:SendTextMessage')).toEqual([
      { Effect: 'Allow', Action: 'sms-voice:SendTextMessage', Resource: { 'Fn::GetAtt': [stack.getLogicalId(sms.configurationSet), 'Arn'] } },
    ]);
  }, 120_000); // any synthesis runs CDK's template validation (tens of seconds on a loaded machine)
});
