/** Creating a deal (spec "Transaction"): the deal and its `transaction.created` commit together. */
import { insertTransaction, type NewTransaction, type Transaction } from '#db/transactions';
import type { TransactItem } from '#db/transact';
import { outboxPut } from '#db/outbox';
import type { Actor } from '#events/outbox';

/**
 * Creates a deal and emits `transaction.created`, plus any `extra` writes (key dates, tasks, ...) in the same
 * transaction: the deal's `Put` is item 0, the event item 1, `extra` from item 2.
 * @throws TransactionCanceledException when a condition of `extra` fails (the caller reads its index)
 */
export async function createTransaction(actor: Actor, input: NewTransaction, extra: (t: Transaction) => TransactItem[] = () => [], now = new Date()): Promise<Transaction> {
  return insertTransaction(
    actor.orgId,
    input,
    (t) => [outboxPut(actor, 'transaction.created', { transactionId: t.id, address: t.address, status: t.status, side: t.side }, now), ...extra(t)],
    now,
  );
}
