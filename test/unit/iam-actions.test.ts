/** test/support/iam/iam-actions.ts: SDK commands to the IAM actions the offline evaluation judges. */
import { describe, expect, it } from 'vitest';
import { iamActionsOf } from '#test/support/iam/iam-actions';

describe('iamActionsOf', () => {
  it('keeps an operation that is its own IAM action', () => {
    expect(iamActionsOf('dynamodb', 'PutItemCommand')).toEqual(['dynamodb:PutItem']);
    expect(iamActionsOf('ses', 'SendEmail')).toEqual(['ses:SendEmail']);
  });

  it('maps operations that are not IAM actions to the action AWS authorizes them as', () => {
    expect(iamActionsOf('s3', 'HeadObject')).toEqual(['s3:GetObject']);
    expect(iamActionsOf('s3', 'ListObjectsV2Command')).toEqual(['s3:ListBucket']);
    expect(iamActionsOf('sqs', 'SendMessageBatch')).toEqual(['sqs:SendMessage']);
  });

  it('authorizes a DynamoDB transaction per kind of item', () => {
    const input = { TransactItems: [{ Put: {} }, { ConditionCheck: {} }, { Put: {} }, { Update: {} }] };
    expect(iamActionsOf('dynamodb', 'TransactWriteItems', input)).toEqual(['dynamodb:PutItem', 'dynamodb:ConditionCheckItem', 'dynamodb:UpdateItem']);
  });
});
