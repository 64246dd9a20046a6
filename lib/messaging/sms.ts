/**
 * `SmsMessaging`: texts through AWS End User Messaging SMS, and texts back.
 *
 *   API group ──SendTextMessage (origination identity, configuration set)──▶ End User Messaging SMS ──▶ phone
 *   phone ──▶ origination number (two-way on) ──publish──▶ inbound SMS topic ──▶ inbound-sms (keywords, thread)
 *
 * - An `AWS::SMSVOICE::ConfigurationSet` the sends name (`SMS_CONFIGURATION_SET`), with an event destination: an
 *   SNS topic (the messaging topic key) → functions/sms-events, which records delivery receipts on the text
 *   (`delivered` / `failed`, shared/use-cases/messaging/sms-events.ts).
 * - The origination identity (a phone number, pool or sender ID) comes from context `smsOriginationIdentity`:
 *   numbers are registered and bought by the operator, never by a stack. Two-way SMS to the topic is switched on
 *   by the operator too (`aws pinpoint-sms-voice-v2 update-phone-number --phone-number-id … --two-way-enabled
 *   --two-way-channel-arn <InboundSmsTopicArn>`): the topic policy already lets `sms-voice.amazonaws.com` publish,
 *   from this account only, and the topic's key lets it encrypt.
 * - `grantSend` allows `sms-voice:SendTextMessage` on exactly the origination identity, its opt-out list and the
 *   configuration set, and sets `SMS_ORIGINATION_IDENTITY` and `SMS_CONFIGURATION_SET`.
 */
import { CfnOutput, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as smsvoice from 'aws-cdk-lib/aws-smsvoice';
import * as sns from 'aws-cdk-lib/aws-sns';
import { LambdaSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import type { ServiceFunction } from '../service-function.ts';
import { originationArn, type MessagingSettings } from './settings.ts';

/** Inputs of `SmsMessaging`. */
export interface SmsMessagingProps {
  readonly settings: MessagingSettings;
  /** Encrypts the inbound topic (its key policy must let End User Messaging use it). */
  readonly topicKey: kms.IKey;
  /** functions/inbound-sms, subscribed to the inbound topic. */
  readonly inboundHandler: ServiceFunction;
  /** functions/sms-events, subscribed to the delivery events topic. */
  readonly eventsHandler: ServiceFunction;
}

/**
 * What the configuration set's event destination publishes: delivery receipts and final failures (AWS End User
 * Messaging SMS User Guide, "Event types for SMS, MMS, and voice"); queued and pending are not sent.
 */
export const SMS_EVENT_TYPES = [
  'TEXT_DELIVERED', 'TEXT_SUCCESSFUL', 'TEXT_BLOCKED', 'TEXT_TTL_EXPIRED', 'TEXT_CARRIER_UNREACHABLE', 'TEXT_INVALID', 'TEXT_INVALID_MESSAGE',
  'TEXT_CARRIER_BLOCKED', 'TEXT_UNREACHABLE', 'TEXT_SPAM', 'TEXT_UNKNOWN', 'TEXT_PROTECT_BLOCKED',
] as const;

/** SMS configuration set, inbound topic and its subscription, and the send grant. */
export class SmsMessaging extends Construct {
  readonly configurationSet: smsvoice.CfnConfigurationSet;
  /** Two-way SMS notifications (JSON per SNS message) → functions/inbound-sms. */
  readonly inboundTopic: sns.Topic;
  /** Delivery events of the configuration set (`SMS_EVENT_TYPES`, JSON per SNS message) → functions/sms-events. */
  readonly eventsTopic: sns.Topic;
  /** ARN of the origination identity, when `smsOriginationIdentity` is set. */
  readonly originationArn?: string;
  private readonly settings: MessagingSettings;

  constructor(scope: Construct, id: string, props: SmsMessagingProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.settings = props.settings;
    this.originationArn = originationArn(stack, props.settings);
    this.eventsTopic = new sns.Topic(this, 'EventsTopic', { displayName: 'SMS delivery events (sms-events)', masterKey: props.topicKey, enforceSSL: true });
    this.eventsTopic.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'AllowEndUserMessagingEvents',
        principals: [new iam.ServicePrincipal('sms-voice.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.eventsTopic.topicArn],
        // This account's configuration sets only (not the one by ARN: the set names the topic, so that would be a cycle).
        conditions: {
          StringEquals: { 'aws:SourceAccount': stack.account },
          ArnLike: { 'aws:SourceArn': stack.formatArn({ service: 'sms-voice', resource: 'configuration-set', resourceName: '*' }) },
        },
      }),
    );
    this.eventsTopic.addSubscription(new LambdaSubscription(props.eventsHandler.live));
    this.configurationSet = new smsvoice.CfnConfigurationSet(this, 'ConfigurationSet', {
      eventDestinations: [
        { eventDestinationName: 'delivery-receipts', enabled: true, matchingEventTypes: [...SMS_EVENT_TYPES], snsDestination: { topicArn: this.eventsTopic.topicArn } },
      ],
    });
    // The service checks it may publish when the destination is created: the topic policy first.
    const eventsPolicy = this.eventsTopic.node.tryFindChild('Policy');
    if (eventsPolicy) this.configurationSet.node.addDependency(eventsPolicy);

    this.inboundTopic = new sns.Topic(this, 'InboundTopic', { displayName: 'Inbound SMS (inbound-sms)', masterKey: props.topicKey, enforceSSL: true });
    this.inboundTopic.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'AllowEndUserMessagingTwoWay',
        principals: [new iam.ServicePrincipal('sms-voice.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.inboundTopic.topicArn],
        // Any origination identity of this account (numbers are added after deploy), nobody else's.
        conditions: {
          StringEquals: { 'aws:SourceAccount': stack.account },
          ArnLike: { 'aws:SourceArn': stack.formatArn({ service: 'sms-voice', resource: '*' }) },
        },
      }),
    );
    this.inboundTopic.addSubscription(new LambdaSubscription(props.inboundHandler.live));

    new CfnOutput(stack, 'InboundSmsTopicArn', {
      value: this.inboundTopic.topicArn,
      description: 'Two-way SMS destination: aws pinpoint-sms-voice-v2 update-phone-number --phone-number-id <id> --two-way-enabled --two-way-channel-arn <this>',
    });
  }

  /**
   * Lets `fn` text as shared/ports/sms/aws.ts does: `sms-voice:SendTextMessage` on the origination identity, its
   * opt-out list (`smsOptOutList`) and this configuration set; sets `SMS_ORIGINATION_IDENTITY` (the ARN) and
   * `SMS_CONFIGURATION_SET`. Without an origination identity only the configuration set is named, so nothing can
   * be sent (the port answers 503) until `smsOriginationIdentity` is set and the stack deployed again.
   */
  grantSend(fn: ServiceFunction): void {
    const stack = Stack.of(this);
    fn.fn.addEnvironment('SMS_CONFIGURATION_SET', this.configurationSet.ref);
    const resources = [this.configurationSet.attrArn];
    if (this.originationArn) {
      fn.fn.addEnvironment('SMS_ORIGINATION_IDENTITY', this.originationArn);
      resources.push(this.originationArn, stack.formatArn({ service: 'sms-voice', resource: 'opt-out-list', resourceName: this.settings.smsOptOutList }));
    }
    fn.fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['sms-voice:SendTextMessage'], resources }));
  }
}
