/**
 * Applying a completed extraction job to a deal (`POST /api/v1/transactions`): the deal (created, or an
 * existing one attached), its key dates, the parties with their roles, starter tasks following the key
 * dates, the source document attached to the deal, a record of the application (shared/db/applied-extractions.ts)
 * and the job marked applied — all in ONE
 * `TransactWriteItems` with their events (`transaction.created`, `key_date.updated`, `contact.created`,
 * `task.created`, `document.uploaded`). The job's condition (completed, not applied yet) makes a second
 * or concurrent apply commit nothing.
 */
import { randomUUID } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { appliedExtractionPut, type AppliedExtraction } from '#db/applied-extractions';
import { MAX_TRANSACT_ITEMS, transactWrite, type TransactItem } from '#db/transact';
import type { Actor } from '#events/outbox';
import { getDeal, touchTransaction, type Deal, type Transaction } from '#db/transactions';
import { createTransaction } from '#use-cases/create-transaction';
import { keyDateWrites } from '#use-cases/key-date-writes';
import { followKeyDates } from '#use-cases/reminder-schedule';
import { newOpenTask, type Task } from '#db/task-items';
import { taskCreateItems } from '#use-cases/task-created';
import { splitName, type Contact } from '#db/contacts';
import { contactCreateItems } from '#use-cases/contacts';
import { getJob, jobAppliedUpdate, type ExtractionJob } from '#db/extraction-jobs';
import { attachDocumentUpdate, findDocument, nextDocumentOrder, type DocumentRecord } from '#db/documents';
import { documentUploadedPut } from '#use-cases/documents';
import { getStatusVocabulary } from '#db/statuses';
import { Conflict, InvalidInput } from '#domain/errors';
import { retryStale, StaleRead } from '#use-cases/optimistic';
import { dictOf } from '#domain/dict';
import {
  applyOverrides,
  keyDatesAfterOverrides,
  parseOverrides,
  plannedContacts,
  plannedStarterTasks,
  propertyAddressOf,
} from '#domain/apply-extraction';
import type { ContractFieldName, ContractFields } from '#domain/extraction/types';

/** The ApplyExtraction body (spec "Transactions"), validated by the manifest. */
export interface ApplyExtractionInput {
  extractionJobId: string;
  transactionId?: string | null;
  transactionType?: Transaction['transactionType'] | null;
  side?: Transaction['side'] | null;
  overrides?: Record<string, unknown> | null;
}

const notCompleted = (jobId: string, state: string) =>
  new Conflict(`Extraction job ${jobId} is not completed (state: ${state}); extraction not completed.`, { extractionJobId: `is not completed (state: ${state}); extraction not completed` });

const alreadyApplied = (jobId: string, transactionId: string) =>
  new Conflict(`Extraction job ${jobId} was already applied to transaction ${transactionId}.`, { extractionJobId: `was already applied to transaction ${transactionId}` });

/**
 * Applies the job's result (with `overrides`) to a new deal, or to `transactionId`.
 *
 * A new deal gets the property address, `transactionType` (default `Purchase`), `side` (default `Buyer`)
 * and the organization's first `pending`-category status (`Under Contract` in the default vocabulary),
 * without running that status's cascade (the starter tasks take its place). An existing deal keeps its
 * identity and status; its key dates are upserted (linked tasks move), and parties and starter tasks it
 * already has (same role and name; same title) are not added again.
 * @returns the deal's id
 * @throws NotFound for a job or deal that is absent or another organization's
 * @throws Conflict when the job is not completed, or was already applied (the message names the deal)
 * @throws InvalidInput for bad overrides, a new deal without a property street, or more than 100 writes
 */
export async function applyExtraction(actor: Actor, input: ApplyExtractionInput, now: Date): Promise<string> {
  const job = await getJob(actor.orgId, input.extractionJobId);
  if (job.state !== 'completed' || !job.result) throw notCompleted(job.jobId, job.state);
  if (job.appliedTransactionId) throw alreadyApplied(job.jobId, job.appliedTransactionId);
  const { values, errors } = parseOverrides(input.overrides);
  if (Object.keys(errors).length) throw new InvalidInput(errors);
  const overridden = Object.keys(values) as ContractFieldName[];
  const fields = applyOverrides(job.result.fields, values);
  const keyDates = keyDatesAfterOverrides(job.result, fields, overridden);
  const record: AppliedExtraction = {
    jobId: job.jobId,
    documentId: job.documentId,
    formType: job.result.formType,
    confidence: job.result.confidence,
    overridden,
    appliedAt: now.toISOString(),
    financingType: fields.financingType.value ?? null,
    hoa: fields.hoa.value ?? null,
  };
  const changes = keyDates.map((k) => ({ keyDateType: k.keyDateType, dateValue: k.dateValue, label: k.label, source: k.source, calculationNotes: k.calculationNotes, isCustom: false }));

  if (input.transactionId) {
    const transactionId = input.transactionId;
    return retryStale(async () => {
      // Planned from this read of the deal, committed only if the deal is still as read.
      const deal = await getDeal(actor.orgId, transactionId);
      const items = [touchTransaction(actor.orgId, deal, now, { expectedVersion: deal.version }), jobAppliedUpdate(actor.orgId, job.jobId, deal.id, now)];
      items.push(...(await dealWrites(actor, deal, job, fields, changes, record, now)));
      assertFits(items.length);
      await transactWrite(items, (index) =>
        index === 0 ? new StaleRead() : index === 1 ? new AppliedRace() : new Conflict('The transaction changed while the extraction was applied; retry.'),
      ).catch((err) => rethrowRace(err, actor.orgId, job.jobId));
      await followKeyDates(actor.orgId, deal.reminders, changes, now);
      return deal.id;
    }, () => new Conflict('The transaction kept changing while the extraction was applied; retry.'));
  }

  const propertyAddress = propertyAddressOf(fields);
  if (!propertyAddress) throw new InvalidInput({ 'overrides.propertyStreet': 'the extraction found no property street; give one in overrides to create a transaction' });
  const vocabulary = await getStatusVocabulary(actor.orgId);
  const status = (vocabulary.find((s) => s.category === 'pending') ?? vocabulary[0]).name;
  const doc = await findDocument(actor.orgId, job.documentId);
  try {
    const t = await createTransaction(
      actor,
      { propertyAddress, transactionType: input.transactionType ?? 'Purchase', side: input.side ?? 'Buyer', status },
      (t) => {
        const empty: Deal = { ...t, keyDates: [], tasks: [], recentActivity: [], contacts: [], reminders: [], statusSummaries: [] };
        // Index 2 of the transaction (after the deal and transaction.created): its condition decides a race.
        const items = [jobAppliedUpdate(actor.orgId, job.jobId, t.id, now), ...dealWritesSync(actor, empty, job, fields, changes, record, now, doc && !doc.transactionId ? { doc, order: 0 } : undefined)];
        assertFits(items.length + 2);
        return items;
      },
      now,
    );
    return t.id;
  } catch (err) {
    if (err instanceof TransactionCanceledException) {
      const reasons = err.CancellationReasons ?? [];
      if (reasons[2]?.Code === 'ConditionalCheckFailed') return rethrowRace(new AppliedRace(), actor.orgId, job.jobId);
      if (reasons.some((r) => r.Code === 'ConditionalCheckFailed')) throw new Conflict('The source document changed while the extraction was applied; retry.');
    }
    throw err;
  }
}

/** Thrown inside when the job's applied condition failed; turned into the `Conflict` naming the winner's deal. */
class AppliedRace extends Error {}

async function rethrowRace(err: unknown, orgId: string, jobId: string): Promise<never> {
  if (err instanceof AppliedRace) {
    const job = await getJob(orgId, jobId);
    if (job.appliedTransactionId) throw alreadyApplied(jobId, job.appliedTransactionId);
    throw notCompleted(jobId, job.state);
  }
  throw err;
}

function assertFits(count: number) {
  if (count > MAX_TRANSACT_ITEMS) {
    throw new InvalidInput(
      { extractionJobId: `too many parties, key dates and tasks to apply at once (${count} writes > ${MAX_TRANSACT_ITEMS}); remove parties with overrides (e.g. "buyers") and add them afterwards` },
      `Applying this extraction needs ${count} writes, more than the ${MAX_TRANSACT_ITEMS} one transaction holds.`,
    );
  }
}

type KeyDateChangeList = Parameters<typeof keyDateWrites>[2];

/** The writes for an existing deal (reads where the source document goes in its order). */
async function dealWrites(actor: Actor, deal: Deal, job: ExtractionJob, fields: ContractFields, changes: KeyDateChangeList, record: AppliedExtraction, now: Date): Promise<TransactItem[]> {
  const doc = await findDocument(actor.orgId, job.documentId);
  const attach = doc && !doc.transactionId ? { doc, order: await nextDocumentOrder(actor.orgId, deal.id) } : undefined;
  return dealWritesSync(actor, deal, job, fields, changes, record, now, attach);
}

/**
 * Key dates (with linked tasks moved), parties, starter tasks, the application record and the source
 * document's attachment, for `deal` (a new deal is passed with empty collections).
 */
function dealWritesSync(
  actor: Actor,
  deal: Deal,
  job: ExtractionJob,
  fields: ContractFields,
  changes: KeyDateChangeList,
  record: AppliedExtraction,
  now: Date,
  attachDocument: { doc: DocumentRecord; order: number } | undefined,
): TransactItem[] {
  const { keyDates, items } = keyDateWrites(actor, deal, changes, now);
  const dates = dictOf(deal.keyDates.map((k) => [k.keyDateType, k.dateValue] as const));
  keyDates.forEach((k) => (dates[k.keyDateType] = k.dateValue));

  const linked = new Set(deal.contacts.map((c) => `${c.role}|${c.name.toLowerCase()}`));
  for (const p of plannedContacts(fields)) {
    if (linked.has(`${p.role}|${p.name.toLowerCase()}`)) continue;
    const names = p.type === 'person' ? splitName(p.name) : { firstName: null, lastName: null };
    const contact: Contact = { id: randomUUID(), type: p.type, ...names, name: p.name, email: null, phone: null, company: p.company, createdAt: now.toISOString(), updatedAt: now.toISOString() };
    items.push(...contactCreateItems(actor, contact, { transactionId: deal.id, role: p.role, isPrimary: p.isPrimary }, now));
  }

  const titles = new Set(deal.tasks.map((t) => t.title.toLowerCase()));
  for (const s of plannedStarterTasks(dates)) {
    if (titles.has(s.title.toLowerCase())) continue;
    const task = newOpenTask(deal, actor, now, {
      id: randomUUID(),
      transactionId: deal.id,
      title: s.title,
      description: `Starter task from the applied contract (extraction ${job.jobId}).`,
      dueDate: s.dueDate,
      priority: s.priority,
      assigneeUserId: null,
      linkedMilestoneName: s.linkedKeyDate,
      dueOffsetDays: s.offsetDays,
    });
    items.push(...taskCreateItems(actor, task, now));
  }

  items.push(appliedExtractionPut(actor.orgId, deal.id, record));

  if (attachDocument) {
    items.push(attachDocumentUpdate(actor.orgId, job.documentId, deal.id, attachDocument.order, now));
    if (attachDocument.doc.uploadState === 'uploaded') {
      items.push(documentUploadedPut(actor, { ...attachDocument.doc, transactionId: deal.id }, now));
    }
  }
  return items;
}
