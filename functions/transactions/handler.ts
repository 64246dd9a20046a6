/** Lambda for the `transactions` group: the deal core. */
import { groupHandler } from '#http/pipeline';
import { listTransactions } from './list-transactions.ts';
import { resolveTransactions } from './resolve-transactions.ts';
import { getTransaction } from './get-transaction.ts';
import { addTransactionActivity } from './add-transaction-activity.ts';
import { updateTransactionStatus } from './update-transaction-status.ts';
import { updateTransactionNotes } from './update-transaction-notes.ts';
import { applyExtraction } from './apply-extraction.ts';

export const operations = { listTransactions, applyExtraction, resolveTransactions, getTransaction, addTransactionActivity, updateTransactionStatus, updateTransactionNotes };
export const handler = groupHandler('transactions', operations);
