/**
 * `DataKey`: the customer-managed KMS key that encrypts the service's data at rest — the table (and its stream),
 * the documents bucket (with an S3 Bucket Key, so one KMS call serves many objects), the webhook and messaging
 * queues, and the members' mail secrets an operator creates (`--kms-key-id` = output `DataKeyArn`). A brokerage's
 * security team can then audit every use in CloudTrail, and revoke or schedule deletion of all data with one key.
 *
 * Grants are explicit statements without wildcard actions (cdk-nag AwsSolutions-IAM5): `grantDecrypt` for
 * readers, `grantEncryptDecrypt` for writers.
 */
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct, type IConstruct } from 'constructs';

/** KMS actions a reader of encrypted data needs (S3 GetObject, DynamoDB reads, SQS receive). */
export const KMS_READ_ACTIONS = ['kms:Decrypt', 'kms:DescribeKey'] as const;
/** KMS actions a writer needs too (S3 PutObject, DynamoDB writes, SQS send). */
export const KMS_WRITE_ACTIONS = ['kms:Decrypt', 'kms:DescribeKey', 'kms:Encrypt', 'kms:GenerateDataKey'] as const;

/**
 * A queue's encryption settings: the data key (data keys reused for 5 minutes, SQS's default) or, without one,
 * SQS-managed encryption.
 */
export function queueEncryption(dataKey: DataKey | undefined): Pick<sqs.QueueProps, 'encryption' | 'encryptionMasterKey'> {
  return dataKey ? { encryption: sqs.QueueEncryption.KMS, encryptionMasterKey: dataKey.key } : { encryption: sqs.QueueEncryption.SQS_MANAGED };
}

/**
 * Acknowledges, on one function, the two wildcard KMS actions CDK's own `grantSendMessages` writes for a queue
 * encrypted with the data key (`kms:ReEncrypt*`, `kms:GenerateDataKey*`). CDK writes that grant for the queue
 * targets it wires itself (a Lambda on-failure destination, an event source's on-failure DLQ, a queue the function
 * sends to); the statement's resource is this key alone.
 * @param why what the function sends to the encrypted queue
 */
export function acknowledgeQueueSendKeyGrant(fn: IConstruct, why: string): void {
  for (const action of ['kms:ReEncrypt*', 'kms:GenerateDataKey*']) {
    Validations.of(fn).acknowledge({
      id: `AwsSolutions-IAM5[Action::${action}]`,
      reason: `CDK's SQS send grant for a queue encrypted with the stack's data key (${why}): the wildcard is in the action name only (ReEncryptFrom/To, GenerateDataKey variants); the resource is that one key.`,
    });
  }
}

/** Inputs of `DataKey`. */
export interface DataKeyProps {
  /** What CloudFormation does with the key when it leaves the stack. Default RETAIN: retained data needs it. */
  readonly removalPolicy?: RemovalPolicy;
}

/** The data key, rotated yearly, retained with the data it protects. */
export class DataKey extends Construct {
  readonly key: kms.Key;

  constructor(scope: Construct, id: string, props: DataKeyProps = {}) {
    super(scope, id);
    this.key = new kms.Key(this, 'Key', {
      description: 'Transaction-coordination service data at rest: table, documents bucket, queues, mail secrets (lib/data-key.ts)',
      enableKeyRotation: true,
      // The table and bucket are retained (RETAIN); their key must outlive the stack with them.
      removalPolicy: props.removalPolicy ?? RemovalPolicy.RETAIN,
      pendingWindow: Duration.days(30),
    });
  }

  /** Lets `grantee` decrypt (read encrypted data). */
  grantDecrypt(grantee: iam.IGrantable): void {
    grantee.grantPrincipal.addToPrincipalPolicy(new iam.PolicyStatement({ actions: [...KMS_READ_ACTIONS], resources: [this.key.keyArn] }));
  }

  /** Lets `grantee` encrypt and decrypt (write and read encrypted data). */
  grantEncryptDecrypt(grantee: iam.IGrantable): void {
    grantee.grantPrincipal.addToPrincipalPolicy(new iam.PolicyStatement({ actions: [...KMS_WRITE_ACTIONS], resources: [this.key.keyArn] }));
  }
}
