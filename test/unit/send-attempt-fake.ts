/**
 * The send item's attempt rules as a fake table applies them (shared/db/outbound-sends.ts `claimSendAttempt`,
 * `releaseSendAttempt`), for the unit tests of the send worker's use cases (test/unit/message-send.test.ts,
 * test/unit/service-email-send.test.ts): the claim succeeds only on `queued`, the release only on `sending` at the
 * same `attemptAt`, as DynamoDB's conditions would; each records its name in `calls`.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';

/** The `ConditionalCheckFailedException` DynamoDB throws for a failed condition. */
const conditionFailed = () => new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });

/**
 * An `UpdateCommand` fake (for `ddb.on(UpdateCommand).callsFake`) over the send item `item()`.
 * @throws ConditionalCheckFailedException as DynamoDB would; Error for any other update
 */
export function sendAttemptUpdates(item: () => Record<string, any>, calls: string[]) {
  return (input: any) => {
    const send = item();
    const v = input.ExpressionAttributeValues;
    if (input.UpdateExpression.includes('attemptAt = :now')) {
      if (send.state !== 'queued') throw conditionFailed();
      calls.push('claim');
      Object.assign(send, { state: 'sending', attemptAt: v[':now'] });
    } else if (input.UpdateExpression.includes(':null')) {
      if (send.state !== 'sending' || send.attemptAt !== v[':at']) throw conditionFailed();
      calls.push('release');
      Object.assign(send, { state: 'queued', attemptAt: null });
    } else throw new Error(`unexpected update ${input.UpdateExpression}`);
    return {};
  };
}
