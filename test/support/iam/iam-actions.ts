/**
 * The IAM actions an AWS SDK v3 command is authorized as, for the recorder of the assembly runtime: most commands
 * are `<prefix>:<Operation>`, but some are not an IAM action at all (the simulator rejects them as `Invalid`).
 * Sources: the Service Authorization Reference's action tables, and each API reference's "Permissions" notes
 * (S3 `HeadObject` needs `s3:GetObject`; SQS and SNS batch calls need the single action; DynamoDB
 * `TransactWriteItems` is authorized per item as `PutItem`/`UpdateItem`/`DeleteItem`/`ConditionCheckItem`).
 */

/** Operations whose IAM action differs from their name, by IAM service prefix. */
const RENAMED: Record<string, Record<string, string>> = {
  s3: {
    HeadObject: 's3:GetObject',
    HeadBucket: 's3:ListBucket',
    ListObjects: 's3:ListBucket',
    ListObjectsV2: 's3:ListBucket',
    ListObjectVersions: 's3:ListBucketVersions',
    DeleteObjects: 's3:DeleteObject',
    CreateMultipartUpload: 's3:PutObject',
    UploadPart: 's3:PutObject',
    CompleteMultipartUpload: 's3:PutObject',
    CopyObject: 's3:PutObject', // on the target; the source also needs s3:GetObject, a call on another resource
  },
  sqs: { SendMessageBatch: 'sqs:SendMessage', DeleteMessageBatch: 'sqs:DeleteMessage', ChangeMessageVisibilityBatch: 'sqs:ChangeMessageVisibility' },
  sns: { PublishBatch: 'sns:Publish' },
  dynamodb: { TransactGetItems: 'dynamodb:GetItem' },
};

/** DynamoDB `TransactWriteItems` item kinds → the action each is authorized as. */
const TRANSACT_WRITE: Record<string, string> = { Put: 'dynamodb:PutItem', Update: 'dynamodb:UpdateItem', Delete: 'dynamodb:DeleteItem', ConditionCheck: 'dynamodb:ConditionCheckItem' };

/**
 * The IAM actions of one SDK command.
 * @param prefix the IAM service prefix (`dynamodb`, `s3`, `sqs`, `sns`, `ses`, `kms`, `scheduler`, `states`…)
 * @param operation the operation name, e.g. `PutItem` (an SDK command's class name without `Command`)
 * @param input the command input; DynamoDB `TransactWriteItems` reads its `TransactItems` to list one action per
 *   kind of item (all items of this service name the one table)
 * @returns the distinct actions, e.g. `['dynamodb:PutItem', 'dynamodb:ConditionCheckItem']`
 */
export function iamActionsOf(prefix: string, operation: string, input?: { TransactItems?: Array<Record<string, unknown>> }): string[] {
  const name = operation.replace(/Command$/, '');
  if (prefix === 'dynamodb' && name === 'TransactWriteItems') {
    const kinds = (input?.TransactItems ?? []).flatMap((item) => Object.keys(item).filter((k) => k in TRANSACT_WRITE));
    return [...new Set(kinds.map((k) => TRANSACT_WRITE[k]!))];
  }
  return [RENAMED[prefix]?.[name] ?? `${prefix}:${name}`];
}
