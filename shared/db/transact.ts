/**
 * `TransactWriteItems` helper: writes that must agree (a change and its outbox events, a key date and its
 * linked tasks) commit together or not at all. Maps a failed condition to the caller's domain error.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#db/client';

export type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

/** DynamoDB's limit of items in one transaction. */
export const MAX_TRANSACT_ITEMS = 100;

/**
 * Commits `items` atomically.
 * @param onConditionFailed called with the index of the first item whose condition failed; its return
 *   value (an error) is thrown. Other cancellations (conflicts, throttling) are rethrown as they are.
 * @throws Error when more than 100 items are given (callers bound their input so this cannot happen)
 */
export async function transactWrite(items: TransactItem[], onConditionFailed?: (index: number) => Error): Promise<void> {
  if (items.length > MAX_TRANSACT_ITEMS) throw new Error(`transaction of ${items.length} items exceeds ${MAX_TRANSACT_ITEMS}`);
  try {
    await db().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (err) {
    if (err instanceof TransactionCanceledException && onConditionFailed) {
      const index = (err.CancellationReasons ?? []).findIndex((r) => r.Code === 'ConditionalCheckFailed');
      if (index >= 0) throw onConditionFailed(index);
    }
    throw err;
  }
}
