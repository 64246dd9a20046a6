/**
 * `TransactWriteItems` helper: writes that must agree (a change and its outbox events, a key date and its
 * linked tasks) commit together or not at all. Maps a failed condition to the caller's domain error.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#db/client';
import { indexCommitted } from '#db/search-index';
import { Conflict } from '#domain/errors';

/**
 * Another transaction was writing the same items at the same moment (DynamoDB cancels with `TransactionConflict`).
 * A `Conflict` to the caller (409 or 422, shared/http/errors.ts) unless a use case retries it
 * (shared/use-cases/optimistic.ts does).
 */
export class WriteConflict extends Conflict {
  constructor() {
    super('Another change to the same records was in progress; retry.');
  }
}

export type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

/** DynamoDB's limit of items in one transaction. */
export const MAX_TRANSACT_ITEMS = 100;

/**
 * Commits `items` atomically, then writes the search tokens of each deal or contact it put
 * (shared/db/search-index.ts; derived data, outside the transaction as a GSI entry would be).
 * @param onConditionFailed called with the index of the first item whose condition failed; its return
 *   value (an error) is thrown. Other cancellations (conflicts, throttling) are rethrown as they are.
 * @throws WriteConflict when DynamoDB cancels the transaction for a concurrent transaction on the same items
 * @throws Error when more than 100 items are given (callers bound their input so this cannot happen)
 */
export async function transactWrite(items: TransactItem[], onConditionFailed?: (index: number) => Error): Promise<void> {
  if (items.length > MAX_TRANSACT_ITEMS) throw new Error(`transaction of ${items.length} items exceeds ${MAX_TRANSACT_ITEMS}`);
  try {
    await db().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (err) {
    if (err instanceof TransactionCanceledException) {
      const reasons = err.CancellationReasons ?? [];
      const index = reasons.findIndex((r) => r.Code === 'ConditionalCheckFailed');
      if (index >= 0 && onConditionFailed) throw onConditionFailed(index);
      if (reasons.some((r) => r.Code === 'TransactionConflict')) throw new WriteConflict();
    }
    throw err;
  }
  await indexCommitted(items.map((i) => i.Put?.Item));
}
