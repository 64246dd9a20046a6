/**
 * `InboundMail`: replies to the deals' reply addresses come back into their threads.
 *
 *   sender ──SMTP──▶ SES (MX of the inbound domain) ──receipt rule: S3 action──▶ inbound-mail bucket, inbound/<SES id>
 *                                                                                   │ ObjectCreated, prefix inbound/
 *                                                                                   ▼
 *                                                                             inbound-email ──▶ the deal's thread
 *
 * - Created only when the deployment receives mail (context `inboundMailDomain` or `mailDomain`,
 *   lib/messaging/settings.ts `receivesMail`): a receipt rule set named `<stackName>-inbound` with one rule for the
 *   inbound mail domain: spam and virus scanning on, then the S3 action. CloudFormation cannot make a rule set active
 *   (one per account and region): the operator runs `aws ses set-active-receipt-rule-set` once (output
 *   `InboundMailActivateCommand`), which switches off whatever rule set the account had active.
 * - Its own bucket, SSE-S3, rather than the documents bucket (SSE-KMS with the data key). Chosen over a key-policy
 *   grant for `ses.amazonaws.com`: the data key's policy then names no service principal, so a brokerage's security
 *   review of the key that protects every record stays one account-scoped policy; with SSE-S3 the bucket policy is
 *   the only grant SES needs (SES Developer Guide, "Give permissions to SES to write to S3"), where a bucket default of
 *   SSE-KMS would also make SES's writes depend on a KMS grant to `ses.amazonaws.com`; and mail from anyone on the
 *   internet lands apart from the documents, whose notifications start extraction. The bucket is private, TLS only,
 *   server-access-logged like the documents bucket, retained with the stack's data, and moves messages to
 *   Intelligent-Tiering after 30 days (they are kept: the communication log can be rebuilt from them, attachments
 *   included).
 * - Its bucket policy lets `ses.amazonaws.com` put objects under `inbound/` only, and only for this rule
 *   (`aws:SourceAccount` and `aws:SourceArn`). The same prefix is what the local SMTP server writes into the local
 *   documents bucket (lib/local/messaging.ts), so one handler serves both.
 * - inbound-email reads `inbound/*` of this bucket only; shared/ports/blob-store.ts reads its bucket from
 *   `DOCUMENTS_BUCKET`, which for this worker names the inbound-mail bucket (it touches no other).
 */
import { CfnOutput, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3n from 'aws-cdk-lib/aws-s3-notifications';
import * as ses from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';
import { INBOUND_PREFIX } from '#ports/object-prefixes';
import { nagResourceOf } from '../nag-resource.ts';
import type { ServiceFunction } from '../service-function.ts';
import type { MessagingSettings } from './settings.ts';

/** Name of the receipt rule inside the set. */
export const INBOUND_RULE_NAME = 'store-replies';

/** Days before received messages move to S3 Intelligent-Tiering. */
export const INBOUND_MAIL_TIERING_AFTER_DAYS = 30;

/** Inputs of `InboundMail`. */
export interface InboundMailProps {
  readonly settings: MessagingSettings;
  /** Where the inbound-mail bucket's server access logs go (the documents bucket's log bucket), under `inbound-mail/`. */
  readonly accessLogsBucket: s3.IBucket;
  /** functions/inbound-email. */
  readonly handler: ServiceFunction;
  /** What happens to the bucket when the stack is deleted. Default RETAIN (received mail is part of the records). */
  readonly removalPolicy?: RemovalPolicy;
}

/** The inbound-mail bucket, receipt rule set and rule, the bucket permission for SES, the notification and the handler's read grant. */
export class InboundMail extends Construct {
  /** Received messages (`inbound/<SES message id>`), SSE-S3. */
  readonly bucket: s3.Bucket;
  readonly ruleSet: ses.ReceiptRuleSet;
  readonly rule: ses.ReceiptRule;
  /** `<stackName>-inbound`. */
  readonly ruleSetName: string;

  constructor(scope: Construct, id: string, props: InboundMailProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const { handler } = props;
    const bucket = (this.bucket = new s3.Bucket(this, 'Bucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: props.accessLogsBucket,
      serverAccessLogsPrefix: 'inbound-mail/',
      lifecycleRules: [
        {
          id: 'messages-to-intelligent-tiering',
          transitions: [{ storageClass: s3.StorageClass.INTELLIGENT_TIERING, transitionAfter: Duration.days(INBOUND_MAIL_TIERING_AFTER_DAYS) }],
        },
      ],
      removalPolicy: props.removalPolicy ?? RemovalPolicy.RETAIN,
    }));
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
      reason: `Object-level wildcard under one key prefix of the inbound-mail bucket: the inbound-email handler reads only received messages (${INBOUND_PREFIX}<SES message id>), whose names SES chooses; the only action is s3:GetObject.`,
    });
    // The blob store's bucket variable: for this worker, the inbound-mail bucket.
    handler.fn.addEnvironment('DOCUMENTS_BUCKET', bucket.bucketName);
    handler.fn.addEnvironment('INBOUND_MAIL_DOMAIN', props.settings.inboundMailDomain);
    bucket.addEventNotification(s3.EventType.OBJECT_CREATED, new s3n.LambdaDestination(handler.live), { prefix: INBOUND_PREFIX });

    new CfnOutput(stack, 'InboundMailActivateCommand', {
      value: `aws ses set-active-receipt-rule-set --rule-set-name ${this.ruleSetName}`,
      description:
        'Run once: CloudFormation cannot activate a receipt rule set. WARNING: it replaces the account\'s active rule set in this region (one per account): ' +
        'run `aws ses describe-active-receipt-rule-set` first and copy any rules you still need into this set. ' +
        `Then point the MX of ${props.settings.inboundMailDomain} at inbound-smtp.<region>.amazonaws.com`,
    });
  }
}
