/**
 * AI proposals of key-date changes: made from real sources — a later extraction of a document on the deal (an
 * amendment, a re-uploaded contract) whose key dates differ from the deal's, with the extraction's citations as
 * evidence; an inbound email or text that states a new date, with its sentence as evidence — and decided by a
 * person. Approval writes through the same use case as a manual key-date write (shared/use-cases/key-dates.ts
 * `upsertKeyDates`: linked tasks move, one `key_date.updated` per change), in the same transaction as the
 * proposal's status, and is refused when the deal's value of a key date the proposal changes has moved since
 * it was made (stale).
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { getJob } from '#db/extraction-jobs';
import { findDocument } from '#db/documents';
import { getDeal, type Deal } from '#db/transactions';
import { getProposal, listProposals, proposalCreatePut, proposalPendingPut, type Evidence, type Proposal, type ProposalSource, type ProposalStatus } from '#db/proposals';
import { transactWrite } from '#db/transact';
import type { Actor } from '#events/outbox';
import { Conflict, InvalidInput, NotFound } from '#domain/errors';
import { changedKeyDates, derivedUuid, extractionEvidence, keyDatesStatedIn, parseEditedParameters, staleReasons, summaryOf, type KeyDateDelta } from '#domain/proposals';
import { upsertKeyDates } from '#use-cases/key-dates';
import { logger } from '#observability/powertools';

/** A proposal as the API shows it: with `stale` (and why) computed against the deal as it is now. */
export type ProposalView = Proposal & { stale: boolean; staleReasons: string[] };

const findDeal = (orgId: string, transactionId: string): Promise<Deal | null> => getDeal(orgId, transactionId).catch((err) => (err instanceof NotFound ? null : Promise.reject(err)));

/**
 * Creates a pending proposal of `deltas` on `deal` (id derived from the source, so a retried producer makes no
 * second one).
 * @returns the proposal, or null when there is nothing to change or it exists already
 */
async function propose(orgId: string, deal: Deal, deltas: KeyDateDelta[], source: ProposalSource, evidence: Evidence[], now: Date): Promise<Proposal | null> {
  if (!deltas.length) return null;
  const keyDates = deltas.map((d) => ({ keyDateType: d.keyDateType, dateValue: d.dateValue }));
  const p: Proposal = {
    id: derivedUuid(`${orgId}:${source.type}:${source.jobId ?? source.messageId}`),
    transactionId: deal.id,
    kind: 'key_date_change',
    status: 'pending',
    summary: summaryOf(deltas),
    source,
    parameters: { keyDates },
    originalParameters: { keyDates },
    basis: { dealVersion: deal.version, keyDates: Object.fromEntries(deltas.map((d) => [d.keyDateType, d.currentValue])) },
    calculationNotes: Object.fromEntries(deltas.map((d) => [d.keyDateType, d.calculationNotes])),
    evidence,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    editedAt: null,
    editedBy: null,
    decidedAt: null,
    decidedBy: null,
    rejectionReason: null,
    appliedKeyDates: null,
  };
  try {
    await transactWrite([proposalCreatePut(orgId, p)]);
  } catch (err) {
    if (err instanceof TransactionCanceledException) return null; // made by an earlier attempt
    throw err;
  }
  return p;
}

/**
 * After an extraction job completes: when its document belongs to a deal that already has key dates and the job
 * was not applied to it, proposes the key dates it computes that differ from the deal's, citing the fields they
 * come from. Jobs of documents without a deal, or deals without key dates, propose nothing (the first contract is
 * applied with `POST /transactions`).
 * @returns the proposal, or null
 */
export async function proposeFromExtraction(orgId: string, jobId: string, now: Date): Promise<Proposal | null> {
  const job = await getJob(orgId, jobId);
  if (job.state !== 'completed' || !job.result || job.appliedTransactionId) return null;
  const doc = await findDocument(orgId, job.documentId, true);
  const transactionId = doc?.transactionId ?? job.transactionId;
  if (!transactionId) return null;
  const deal = await findDeal(orgId, transactionId);
  if (!deal || !deal.keyDates.length) return null;
  const deltas = changedKeyDates(deal.keyDates, job.result.keyDates);
  const evidence = extractionEvidence(job.result, deltas.map((d) => d.keyDateType), { jobId, documentId: job.documentId });
  const source: ProposalSource = { type: 'extraction', jobId, documentId: job.documentId, messageId: null, description: `${job.result.formType} extraction of ${doc?.name ?? 'document ' + job.documentId}` };
  return propose(orgId, deal, deltas, source, evidence, now);
}

/** An inbound message as the proposal reads it. */
export interface InboundMessage {
  id: string;
  transactionId: string;
  channel: 'email' | 'sms';
  /** Plain text (the email's text part or the SMS body). */
  text: string;
  subject?: string | null;
  from: string;
  receivedAt: Date;
}

/**
 * After an inbound email or text is threaded into a deal: proposes the key dates it states as changed
 * (shared/domain/proposals.ts `keyDatesStatedIn`) that differ from the deal's, with the sentence as evidence.
 * @returns the proposal, or null
 */
export async function proposeFromMessage(orgId: string, m: InboundMessage, now: Date): Promise<Proposal | null> {
  const stated = keyDatesStatedIn(m.text, m.receivedAt);
  if (!stated.length) return null;
  const deal = await findDeal(orgId, m.transactionId);
  if (!deal) return null;
  const current = new Map(deal.keyDates.map((k) => [k.keyDateType, k.dateValue]));
  const changed = stated.filter((s) => current.get(s.keyDateType) !== s.dateValue);
  const deltas: KeyDateDelta[] = changed.map((s) => ({ keyDateType: s.keyDateType, dateValue: s.dateValue, currentValue: current.get(s.keyDateType) ?? null, calculationNotes: null }));
  const evidence: Evidence[] = changed.map((s) => ({
    kind: 'message_excerpt',
    keyDateType: s.keyDateType,
    field: null,
    text: s.sentence,
    documentId: null,
    jobId: null,
    page: null,
    boundingBox: null,
    messageId: m.id,
    channel: m.channel,
    from: m.from,
  }));
  const what = m.channel === 'email' ? `email from ${m.from}${m.subject ? `: ${m.subject}` : ''}` : `text from ${m.from}`;
  return propose(orgId, deal, deltas, { type: m.channel, jobId: null, documentId: null, messageId: m.id, description: what.slice(0, 300) }, evidence, now);
}

/** The view of a proposal against the deal now (a deal since deleted makes a pending proposal stale). */
export function viewOf(p: Proposal, deal: Deal | null): ProposalView {
  if (p.status !== 'pending') return { ...p, stale: false, staleReasons: [] };
  const reasons = deal ? staleReasons(p.basis.keyDates, p.parameters.keyDates.map((k) => k.keyDateType), deal.keyDates) : ['the transaction no longer exists'];
  return { ...p, stale: reasons.length > 0, staleReasons: reasons };
}

/** One proposal with its evidence and staleness. @throws NotFound */
export async function readProposal(orgId: string, id: string): Promise<ProposalView> {
  const p = await getProposal(orgId, id);
  return viewOf(p, await findDeal(orgId, p.transactionId));
}

/**
 * A page of proposals, newest first.
 * @param opts.status `pending` (default), `approved`, `rejected` or `all`
 * @throws InvalidInput for another status; NotFound for a `transactionId` the organization does not have
 */
export async function pageOfProposals(orgId: string, opts: { status?: string; transactionId?: string; limit: number; offset: number }) {
  const status = (opts.status ?? 'pending').toLowerCase();
  if (!['pending', 'approved', 'rejected', 'all'].includes(status)) throw new InvalidInput({ status: 'must be pending, approved, rejected or all' });
  if (opts.transactionId && !(await findDeal(orgId, opts.transactionId))) throw new NotFound('Transaction');
  return listProposals(orgId, { ...opts, status: status === 'all' ? undefined : (status as ProposalStatus) });
}

const decided = (p: Proposal) => new Conflict(`Proposal ${p.id} is already ${p.status}; only a pending proposal can change.`, { id: `proposal is already ${p.status}; only a pending proposal can change` });

/** Re-reads a proposal whose pending condition failed and throws why. */
async function raceLost(orgId: string, id: string): Promise<never> {
  const now = await getProposal(orgId, id);
  throw now.status === 'pending' ? new Conflict(`Proposal ${id} changed meanwhile; retry.`) : decided(now);
}

class NotPending extends Error {}

/**
 * Replaces the proposed values while pending (`parameters`: `{ keyDates: [{ keyDateType, dateValue }] }`, types
 * among those proposed).
 * @throws NotFound; InvalidInput (fields under `parameters`); Conflict when no longer pending
 */
export async function editProposal(actor: Actor, id: string, parameters: unknown, now: Date): Promise<ProposalView> {
  const p = await getProposal(actor.orgId, id);
  if (p.status !== 'pending') throw decided(p);
  const parsed = parseEditedParameters(parameters, p.originalParameters.keyDates.map((k) => k.keyDateType));
  if ('fields' in parsed) throw new InvalidInput(parsed.fields);
  const next: Proposal = { ...p, parameters: { keyDates: parsed.keyDates }, updatedAt: now.toISOString(), editedAt: now.toISOString(), editedBy: actor.userId };
  try {
    await transactWrite([proposalPendingPut(actor.orgId, next)], () => new NotPending());
  } catch (err) {
    if (err instanceof NotPending) return raceLost(actor.orgId, id);
    throw err;
  }
  return viewOf(next, await findDeal(actor.orgId, p.transactionId));
}

/**
 * Approves a pending proposal: its key dates are written as a manual write would write them (linked tasks move,
 * `key_date.updated` per change), with the proposal marked approved in the same transaction.
 * @throws NotFound; Conflict when not pending, when stale (a key date it changes moved since; the message says
 *   which) or when the deal kept changing
 */
export async function approveProposal(actor: Actor, id: string, now: Date): Promise<ProposalView> {
  const p = await getProposal(actor.orgId, id);
  if (p.status !== 'pending') throw decided(p);
  const deal = await findDeal(actor.orgId, p.transactionId);
  if (!deal) throw new Conflict(`Proposal ${id} is stale: its transaction no longer exists. Reject it.`);
  const original = new Map(p.originalParameters.keyDates.map((k) => [k.keyDateType, k.dateValue]));
  const changes = p.parameters.keyDates.map((k) => ({
    keyDateType: k.keyDateType,
    dateValue: k.dateValue,
    source: 'proposal',
    calculationNotes:
      original.get(k.keyDateType) === k.dateValue
        ? (p.calculationNotes[k.keyDateType] ?? `Approved proposal ${p.id} (${p.source.description})`)
        : `Proposed ${original.get(k.keyDateType)}, edited to ${k.dateValue} before approval (proposal ${p.id})`,
  }));
  let approved: Proposal | undefined;
  try {
    await upsertKeyDates(actor, p.transactionId, changes, now, {
      check: (d) => {
        const reasons = staleReasons(p.basis.keyDates, changes.map((c) => c.keyDateType), d.keyDates);
        if (reasons.length) throw new Conflict(`Proposal ${id} is stale: the transaction changed since it was made (${reasons.join('; ')}). Reject it, or change the key date by hand.`);
      },
      items: (_d, keyDates) => {
        approved = { ...p, status: 'approved', updatedAt: now.toISOString(), decidedAt: now.toISOString(), decidedBy: actor.userId, appliedKeyDates: keyDates };
        return [proposalPendingPut(actor.orgId, approved)];
      },
      onItemConditionFailed: () => new NotPending(),
    });
  } catch (err) {
    if (err instanceof NotPending) return raceLost(actor.orgId, id);
    throw err;
  }
  return viewOf(approved!, null);
}

/**
 * Rejects a pending proposal, recording the reason; the deal is untouched.
 * @throws NotFound; Conflict when no longer pending
 */
export async function rejectProposal(actor: Actor, id: string, reason: string | null, now: Date): Promise<ProposalView> {
  const p = await getProposal(actor.orgId, id);
  if (p.status !== 'pending') throw decided(p);
  const next: Proposal = { ...p, status: 'rejected', updatedAt: now.toISOString(), decidedAt: now.toISOString(), decidedBy: actor.userId, rejectionReason: reason?.trim() || null };
  try {
    await transactWrite([proposalPendingPut(actor.orgId, next)], () => new NotPending());
  } catch (err) {
    if (err instanceof NotPending) return raceLost(actor.orgId, id);
    throw err;
  }
  return viewOf(next, null);
}

/**
 * {@link proposeFromMessage} for the inbound handlers, after the message is stored: a failure is logged, not
 * thrown, because the provider's retry would find the message stored and skip it as a duplicate anyway.
 */
export async function proposeDatesFrom(orgId: string, m: InboundMessage, now: Date): Promise<void> {
  try {
    await proposeFromMessage(orgId, m, now);
  } catch (err) {
    logger.error('proposal from an inbound message failed', { orgId, messageId: m.id, error: err as Error });
  }
}
