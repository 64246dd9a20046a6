/**
 * SMS delivery receipts in CDK (lib/messaging/sms.ts): the configuration set the sends name has an event destination
 * publishing delivery and final-failure events to an encrypted SNS topic that only End User Messaging SMS of this
 * account may publish to, and the sms-events worker is subscribed to it with only the table reads and the status
 * update it makes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Match } from 'aws-cdk-lib/assertions';
import { SMS_EVENT_TYPES } from '#lib/messaging/sms';
import { MESSAGING_WORKER_TABLE_ACCESS } from '#lib/table-access';
import { synthesizeDefault, type Synthesized } from './synth.ts';

let s: Synthesized;
beforeAll(async () => {
  s = await synthesizeDefault();
}, 300_000);

describe('SMS delivery receipts', () => {
  it('sends delivery and final-failure events of the configuration set to the events topic', () => {
    const topic = s.logicalIdOf(s.stack.messaging.sms.eventsTopic);
    s.template.hasResourceProperties('AWS::SMSVOICE::ConfigurationSet', {
      EventDestinations: [{ EventDestinationName: 'delivery-receipts', Enabled: true, MatchingEventTypes: [...SMS_EVENT_TYPES], SnsDestination: { TopicArn: { Ref: topic } } }],
    });
    expect(SMS_EVENT_TYPES).toEqual(expect.arrayContaining(['TEXT_DELIVERED', 'TEXT_SUCCESSFUL', 'TEXT_BLOCKED', 'TEXT_UNKNOWN']));
    expect(SMS_EVENT_TYPES).not.toContain('TEXT_QUEUED');
    // The destination is created after the topic policy lets the service publish.
    const [[, set]] = s.ofType('AWS::SMSVOICE::ConfigurationSet') as [string, { DependsOn?: string[] }][];
    const policy = s.ofType('AWS::SNS::TopicPolicy').find(([, p]) => (p.Properties.Topics as { Ref: string }[]).some((t) => t.Ref === topic))![0];
    expect(set.DependsOn).toContain(policy);
  });

  it('encrypts the topic and lets only End User Messaging SMS of this account publish', () => {
    const topic = s.logicalIdOf(s.stack.messaging.sms.eventsTopic);
    expect(s.resources[topic].Properties.KmsMasterKeyId).toEqual({ 'Fn::GetAtt': [s.logicalIdOf(s.stack.messaging.topicKey), 'Arn'] });
    s.template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      Topics: [{ Ref: topic }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Sid: 'AllowEndUserMessagingEvents',
            Effect: 'Allow',
            Principal: { Service: 'sms-voice.amazonaws.com' },
            Action: 'sns:Publish',
            Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } }, ArnLike: { 'aws:SourceArn': Match.anyValue() } },
          }),
        ]),
      },
    });
  });

  it('subscribes the sms-events worker, which may only read and update the table', () => {
    const topic = s.logicalIdOf(s.stack.messaging.sms.eventsTopic);
    s.template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'lambda', TopicArn: { Ref: topic }, Endpoint: s.liveOf(s.stack.messaging.workers['sms-events']) });
    expect(MESSAGING_WORKER_TABLE_ACCESS['sms-events']).toEqual(['dynamodb:GetItem', 'dynamodb:UpdateItem']);
    const fn = s.resources[s.logicalIdOf(s.stack.messaging.workers['sms-events'].fn)].Properties;
    expect(fn.Environment.Variables.POWERTOOLS_SERVICE_NAME).toBe('sms-events');
  });
});
