/**
 * `InboundMail`: replies to the deals' reply addresses come back into their threads.
 *
 *   sender ──SMTP──▶ SES (MX of the inbound domain) ──receipt rule: S3 action──▶ documents bucket, inbound/<SES id>
 *                                                                                   │ ObjectCreated, prefix inbound/
 *                                                                                   ▼
 *                                                                             inbound-email ──▶ the deal's thread
 *
 * - A receipt rule set named `<stackName>-inbound` with one rule for the inbound mail domain: spam and virus
 *   scanning on, then the S3 action. CloudFormation cannot make a rule set active (one per account and region):
 *   the operator runs `aws ses set-active-receipt-rule-set --rule-set-name <stackName>-inbound` once (output
 *   `InboundMailActivateCommand`).
 * - The bucket policy lets `ses.amazonaws.com` put objects under `inbound/` only, and only for this rule
 *   (`aws:SourceAccount` and `aws:SourceArn`, SES Developer Guide, "Give permissions to SES to write to S3").
 *   The same prefix is what the local SMTP server writes (lib/local/messaging.ts), so one handler serves both.
 * - Raw messages are kept like documents (the communication log can be rebuilt from them, attachments included).
 */
import { CfnOutput, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3n from 'aws-cdk-lib/aws-s3-notifications';
import * as ses from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';
import { INBOUND_PREFIX } from '#functions/inbound-email/handler';
import { nagResourceOf } from '../nag-resource.ts';
import type { ServiceFunction } from '../service-function.ts';
import type { MessagingSettings } from './settings.ts';

/** Name of the receipt rule inside the set. */
export const INBOUND_RULE_NAME = 'store-replies';

/** Inputs of `InboundMail`. */
export interface InboundMailProps {
  readonly settings: MessagingSettings;
  /** The documents bucket; SES writes under `inbound/`. */
  readonly bucket: s3.Bucket;
  /** functions/inbound-email. */
  readonly handler: ServiceFunction;
}

/** Receipt rule set and rule, the bucket permission for SES, the notification and the handler's read grant. */
export class InboundMail extends Construct {
  readonly ruleSet: ses.ReceiptRuleSet;
  readonly rule: ses.ReceiptRule;
  /** `<stackName>-inbound`. */
  readonly ruleSetName: string;

  constructor(scope: Construct, id: string, props: InboundMailProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const { bucket, handler } = props;
    this.ruleSetName = `${stack.stackName}-inbound`;
    this.ruleSet = new ses.ReceiptRuleSet(this, 'RuleSet', { receiptRuleSetName: this.ruleSetName });
    const ruleArn = stack.formatArn({ service: 'ses', resource: 'receipt-rule-set', resourceName: `${this.ruleSetName}:receipt-rule/${INBOUND_RULE_NAME}` });

    const allowSes = new iam.PolicyStatement({
      sid: 'AllowSesInboundMail',
      principals: [new iam.ServicePrincipal('ses.amazonaws.com')],
      actions: ['s3:PutObject'],
      resources: [bucket.arnForObjects(`${INBOUND_PREFIX}*`)],
      conditions: { StringEquals: { 'aws:SourceAccount': stack.account, 'aws:SourceArn': ruleArn } },
    });
    bucket.addToResourcePolicy(allowSes);
    // Written by hand rather than aws-ses-actions' S3 action, whose bucket statement has no aws:SourceArn.
    const storeInBucket: ses.IReceiptRuleAction = {
      bind: () => ({ s3Action: { bucketName: bucket.bucketName, objectKeyPrefix: INBOUND_PREFIX } }),
    };
    this.rule = this.ruleSet.addRule('StoreReplies', {
      receiptRuleName: INBOUND_RULE_NAME,
      recipients: [props.settings.inboundMailDomain],
      scanEnabled: true,
      // Replies come from any mail server; refusing those without TLS would lose them.
      tlsPolicy: ses.TlsPolicy.OPTIONAL,
      actions: [storeInBucket],
    });
    // SES checks it may write when the rule is created.
    this.rule.node.addDependency(bucket.policy!);

    const inboundObjects = bucket.arnForObjects(`${INBOUND_PREFIX}*`);
    handler.fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [inboundObjects] }));
    Validations.of(handler).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${nagResourceOf(this, inboundObjects)}]`,
      reason: `Object-level wildcard under one key prefix of the documents bucket: the inbound-email handler reads only received messages (${INBOUND_PREFIX}<SES message id>), whose names SES chooses; the only action is s3:GetObject.`,
    });
    handler.fn.addEnvironment('DOCUMENTS_BUCKET', bucket.bucketName);
    handler.fn.addEnvironment('INBOUND_MAIL_DOMAIN', props.settings.inboundMailDomain);
    bucket.addEventNotification(s3.EventType.OBJECT_CREATED, new s3n.LambdaDestination(handler.fn), { prefix: INBOUND_PREFIX });

    new CfnOutput(stack, 'InboundMailActivateCommand', {
      value: `aws ses set-active-receipt-rule-set --rule-set-name ${this.ruleSetName}`,
      description: `Run once: CloudFormation cannot activate a receipt rule set. Then point the MX of ${props.settings.inboundMailDomain} at inbound-smtp.<region>.amazonaws.com`,
    });
  }
}
