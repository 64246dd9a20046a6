/**
 * `AlarmTopic`: where every alarm of the stack notifies, and `NotifyEveryAlarm`, the aspect that wires it.
 *
 * - The topic is encrypted with a customer managed key the stack already has (the messaging topics' key): CloudWatch
 *   cannot publish to a topic encrypted with the AWS managed `alias/aws/sns` key (its policy cannot grant
 *   `cloudwatch.amazonaws.com`), so the key's policy gains that grant here. Publishing requires TLS (`enforceSSL`), and
 *   the topic's policy lets this account's alarms publish (SNS's default policy no longer applies once one is set).
 * - An email address (context `alarmEmail`) subscribes by email; SNS mails a confirmation link first.
 * - `NotifyEveryAlarm` visits the whole stack at synthesis, so an alarm added later, by any construct, gets the
 *   topic as its ALARM and OK action without anyone remembering to add it; it also refuses (an error annotation,
 *   which fails `cdk synth`) an alarm whose description lacks its runbook link or exceeds CloudWatch's 1,024 characters.
 */
import { Annotations, type IAspect, Stack, Token } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct, type IConstruct } from 'constructs';
import { MAX_ALARM_DESCRIPTION, runbookBaseUrl } from './runbook.ts';

/** Inputs of `AlarmTopic`. */
export interface AlarmTopicProps {
  /** Customer managed key encrypting the topic; its policy gets a grant for CloudWatch alarms. */
  readonly masterKey: kms.Key;
  /** Address subscribed by email (context `alarmEmail`). Default none: subscribe by hand or pass `alarmActions`. */
  readonly email?: string;
}

/** The on-call SNS topic (KMS-encrypted, TLS only), with an optional email subscription. */
export class AlarmTopic extends Construct {
  readonly topic: sns.Topic;
  /** The topic as an alarm action (used for ALARM and OK). */
  readonly action: cloudwatch.IAlarmAction;

  constructor(scope: Construct, id: string, props: AlarmTopicProps) {
    super(scope, id);
    if (props.email !== undefined && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(props.email)) {
      throw new Error(`alarmEmail must be an email address (got ${JSON.stringify(props.email)})`);
    }
    this.topic = new sns.Topic(this, 'Topic', {
      displayName: 'Transaction-coordination alarms',
      masterKey: props.masterKey,
      enforceSSL: true,
    });
    // CloudWatch encrypts what it publishes to the topic with the topic's key (alarms of this account only).
    props.masterKey.addToResourcePolicy(
      new iam.PolicyStatement({
        principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
        conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } },
      }),
    );
    // The topic's policy replaces SNS's default one (enforceSSL writes it), so it must let CloudWatch publish itself;
    // without this statement every alarm action is refused ("no resource-based policy allows the SNS:Publish").
    const stack = Stack.of(this);
    this.topic.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'AllowCloudWatchAlarms',
        principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: { ArnLike: { 'aws:SourceArn': `arn:${stack.partition}:cloudwatch:${stack.region}:${stack.account}:alarm:*` }, StringEquals: { 'aws:SourceAccount': stack.account } },
      }),
    );
    if (props.email) this.topic.addSubscription(new subscriptions.EmailSubscription(props.email));
    this.action = new SnsAction(this.topic);
  }
}

/**
 * Aspect: every alarm in the visited tree gets each of `actions` as an ALARM and an OK action (an L2 alarm through
 * `addAlarmAction`/`addOkAction`, a bare `CfnAlarm` by appending the action ARNs), and must link its runbook section.
 */
export class NotifyEveryAlarm implements IAspect {
  private readonly wired = new Set<IConstruct>();

  constructor(private readonly actions: readonly cloudwatch.IAlarmAction[]) {}

  visit(node: IConstruct): void {
    if (node instanceof cloudwatch.AlarmBase) {
      if (this.wired.has(node)) return;
      this.wired.add(node);
      node.addAlarmAction(...this.actions);
      node.addOkAction(...this.actions);
      return;
    }
    if (node instanceof cloudwatch.CfnAlarm) {
      this.checkDescription(node);
      const owner = node.node.scope;
      if (owner instanceof cloudwatch.AlarmBase || this.wired.has(node)) return;
      this.wired.add(node);
      const arns = this.actions.map((a) => a.bind(node, { alarmArn: node.attrArn } as unknown as cloudwatch.IAlarm).alarmActionArn);
      node.alarmActions = [...asList(node.alarmActions), ...arns];
      node.okActions = [...asList(node.okActions), ...arns];
    }
  }

  /** Error annotation when the description is missing its runbook link or too long for CloudWatch. */
  private checkDescription(alarm: cloudwatch.CfnAlarm): void {
    const description = alarm.alarmDescription ?? '';
    if (Token.isUnresolved(description)) return;
    if (!description.includes(`Runbook: ${runbookBaseUrl(alarm)}#`)) {
      Annotations.of(alarm).addError('Every alarm description must end with its runbook link (lib/alarms/runbook.ts withRunbook).');
    }
    if (description.length > MAX_ALARM_DESCRIPTION) {
      Annotations.of(alarm).addError(`Alarm description is ${description.length} characters; CloudWatch allows ${MAX_ALARM_DESCRIPTION}.`);
    }
  }
}

/** A CfnAlarm action list as an array (undefined → []). */
function asList(value: string[] | undefined): string[] {
  return value ?? [];
}
