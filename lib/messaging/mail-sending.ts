/**
 * `MailSending`: outbound email through Amazon SES v2 and what SES reports back.
 *
 *   API group / scheduled-send ──SendEmail (raw, configuration set)──▶ SES ──events──▶ SNS topic ──▶ email-events
 *                                                                       (delivery, bounce, complaint, reject, delay)
 *
 * - Configuration set: reputation metrics on; SES's own suppression list for bounces and complaints on (the
 *   service keeps its own too: shared/db/consent.ts); one event destination, the topic, for the five event types
 *   functions/email-events records (SES Developer Guide, "Monitor email sending using event publishing").
 * - Optional domain identity (`mailDomain`), Easy DKIM, with the configuration set as its default.
 * - `grantSend` gives an API group (`mail:send`) or a worker what shared/ports/mail/aws.ts calls: `ses:SendEmail`
 *   and `ses:SendRawEmail` on exactly the configured identities and this configuration set, and
 *   `secretsmanager:GetSecretValue` on secrets under `MAIL_SECRET_PREFIX` (members' SMTP passwords), plus the
 *   environment the mail port reads.
 */
import { ArnFormat, CfnOutput, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as ses from 'aws-cdk-lib/aws-ses';
import * as sns from 'aws-cdk-lib/aws-sns';
import { LambdaSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import type { DataKey } from '../data-key.ts';
import { MAIL_SECRET_PREFIX } from '#db/mail-accounts';
import { nagResourceOf } from '../nag-resource.ts';
import type { ServiceFunction } from '../service-function.ts';
import type { MessagingSettings } from './settings.ts';

/** The SES events functions/email-events records; sends, opens and clicks are not published (nothing reads them). */
export const SES_EVENT_TYPES: readonly ses.EmailSendingEvent[] = [
  ses.EmailSendingEvent.DELIVERY,
  ses.EmailSendingEvent.BOUNCE,
  ses.EmailSendingEvent.COMPLAINT,
  ses.EmailSendingEvent.REJECT,
  ses.EmailSendingEvent.DELIVERY_DELAY,
];

/** Inputs of `MailSending`. */
export interface MailSendingProps {
  readonly settings: MessagingSettings;
  /** Encrypts the events topic (its key policy must let SES use it: see lib/messaging-pipeline.ts). */
  readonly topicKey: kms.IKey;
  /** functions/email-events, subscribed to the events topic. */
  readonly eventsHandler: ServiceFunction;
  /** The data key members' mail secrets are encrypted with (lib/data-key.ts); senders may decrypt through Secrets Manager. */
  readonly dataKey?: DataKey;
}

/** SES configuration set, optional identity, events topic and its subscription. */
export class MailSending extends Construct {
  private readonly dataKey?: DataKey;
  readonly configurationSet: ses.ConfigurationSet;
  /** The `mailDomain` identity, when that context key is set. */
  readonly identity?: ses.EmailIdentity;
  /** SES events (JSON per SNS message) → functions/email-events. */
  readonly eventsTopic: sns.Topic;
  private readonly settings: MessagingSettings;

  constructor(scope: Construct, id: string, props: MailSendingProps) {
    super(scope, id);
    this.settings = props.settings;
    this.dataKey = props.dataKey;
    this.configurationSet = new ses.ConfigurationSet(this, 'ConfigurationSet', {
      reputationMetrics: true,
      suppressionReasons: ses.SuppressionReasons.BOUNCES_AND_COMPLAINTS,
    });
    this.eventsTopic = new sns.Topic(this, 'EventsTopic', { displayName: 'SES events (email-events)', masterKey: props.topicKey, enforceSSL: true });
    // Adds the topic policy statement for ses.amazonaws.com (source account and this configuration set).
    this.configurationSet.addEventDestination('ToEventsTopic', {
      destination: ses.EventDestination.snsTopic(this.eventsTopic),
      events: [...SES_EVENT_TYPES],
    });
    this.eventsTopic.addSubscription(new LambdaSubscription(props.eventsHandler.live));

    const domain = props.settings.mailDomain;
    if (domain) {
      this.identity = new ses.EmailIdentity(this, 'Identity', { identity: ses.Identity.domain(domain), configurationSet: this.configurationSet });
      this.identity.dkimRecords.forEach((record, i) => {
        new CfnOutput(Stack.of(this), `MailDkim${i + 1}`, { value: `${record.name} CNAME ${record.value}`, description: `Easy DKIM record ${i + 1} of 3 for ${domain}: publish it in DNS` });
      });
    }
  }

  /** `arn:…:ses:<region>:<account>:configuration-set/<name>`. */
  get configurationSetArn(): string {
    return Stack.of(this).formatArn({ service: 'ses', resource: 'configuration-set', resourceName: this.configurationSet.configurationSetName });
  }

  /**
   * The service's mail identities (`MAIL_FROM_ADDRESS`, `INBOUND_MAIL_DOMAIN`) for a function that queues email for
   * the send worker (shared/ports/mail-identity.ts): no IAM, it sends nothing itself.
   */
  addIdentityEnvironment(fn: ServiceFunction): void {
    fn.fn.addEnvironment('MAIL_FROM_ADDRESS', this.settings.mailFromAddress);
    fn.fn.addEnvironment('INBOUND_MAIL_DOMAIN', this.settings.inboundMailDomain);
  }

  /**
   * Lets `fn` send mail as shared/ports/mail/aws.ts does: SES v2 `SendEmail` with raw content, which IAM
   * authorizes as `ses:SendRawEmail` (simple content as `ses:SendEmail`; both are allowed), on the identities of
   * `settings.mailSendIdentities` and this configuration set; `secretsmanager:GetSecretValue` on
   * `secret:tcs/mail/*` (SMTP mailboxes; encrypted with the data key, or the AWS managed key), with `kms:Decrypt`
   * on the data key through Secrets Manager only; and `MAIL_FROM_ADDRESS`, `INBOUND_MAIL_DOMAIN`, `SES_CONFIGURATION_SET`.
   * @param options.memberMailboxes false for a function that only ever sends as the service (`MAIL_FROM_ADDRESS`,
   *   e.g. the workspace export's notice): no Secrets Manager grant. Default true.
   */
  grantSend(fn: ServiceFunction, options: { memberMailboxes?: boolean } = {}): void {
    const stack = Stack.of(this);
    this.addIdentityEnvironment(fn);
    fn.fn.addEnvironment('SES_CONFIGURATION_SET', this.configurationSet.configurationSetName);
    const identities = this.settings.mailSendIdentities.map((identity) => stack.formatArn({ service: 'ses', resource: 'identity', resourceName: identity }));
    fn.fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['ses:SendEmail', 'ses:SendRawEmail'], resources: [...identities, this.configurationSetArn] }));
    if (options.memberMailboxes === false) return;
    const secrets = stack.formatArn({ service: 'secretsmanager', resource: 'secret', resourceName: `${MAIL_SECRET_PREFIX}*`, arnFormat: ArnFormat.COLON_RESOURCE_NAME });
    fn.fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [secrets] }));
    if (this.dataKey) {
      fn.fn.addToRolePolicy(new iam.PolicyStatement({
        actions: ['kms:Decrypt'],
        resources: [this.dataKey.key.keyArn],
        conditions: { StringEquals: { 'kms:ViaService': `secretsmanager.${stack.region}.amazonaws.com` } },
      }));
    }
    Validations.of(fn).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${nagResourceOf(this, secrets)}]`,
      reason:
        `Members' SMTP passwords are secrets named under ${MAIL_SECRET_PREFIX} (the operator CLI refuses others); a secret ARN ends in a ` +
        'random suffix and members connect mailboxes after deploy, so the prefix is the narrowest name. Only GetSecretValue is allowed.',
    });
  }
}
