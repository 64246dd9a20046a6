/** Lambda for the `transactions` group: the deal core. */
import { groupHandler } from '#http/pipeline';
import { transactionsOperations } from '#api/manifest/transactions';
import { transactionsExtrasOperations } from '#api/manifest/transactions-extras';
import { listTransactions } from './list-transactions.ts';
import { resolveTransactions } from './resolve-transactions.ts';
import { getTransaction } from './get-transaction.ts';
import { addTransactionActivity } from './add-transaction-activity.ts';
import { updateTransactionStatus } from './update-transaction-status.ts';
import { updateTransactionNotes } from './update-transaction-notes.ts';
import { applyExtraction } from './apply-extraction.ts';

export const operations = { listTransactions, applyExtraction, resolveTransactions, getTransaction, addTransactionActivity, updateTransactionStatus, updateTransactionNotes };
/** The group's operations (manifest): the only routes this function resolves. */
export const manifest = [...transactionsOperations, ...transactionsExtrasOperations];
export const handler = groupHandler('transactions', manifest, operations);
