/**
 * AI proposals: a change to a deal that a person approves or rejects. One item per proposal,
 * `PK = ORG#<orgId>#PROPOSAL#<id>`, `SK = PROPOSAL`; GSI1 `ORG#<orgId>#PROPOSALS` / `<createdAt>#<id>` lists
 * them newest first (status and deal are filters). States: pending → approved | rejected, once; every change
 * is conditional on the proposal still being pending, so of two concurrent decisions one wins.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';
import { queryUpTo } from '#db/query-up-to';
import { gsi1, proposalPk } from '#db/keys';
import type { KeyDate } from '#db/key-date-items';
import type { TransactItem } from '#db/transact';
import { NotFound } from '#domain/errors';

export type ProposalStatus = 'pending' | 'approved' | 'rejected';
export const PROPOSAL_STATUSES: readonly ProposalStatus[] = ['pending', 'approved', 'rejected'];

/** One key date a proposal sets. */
export interface ProposedKeyDate {
  keyDateType: string;
  /** `YYYY-MM-DD`. */
  dateValue: string;
}

/** Where a piece of evidence was found: a citation of an extraction, or an excerpt of a message. */
export interface Evidence {
  kind: 'document_citation' | 'message_excerpt';
  /** The key date it supports. */
  keyDateType: string;
  /** The extracted field cited (`closingDate`…), null for a message. */
  field: string | null;
  /** The text read (citation text or the message's sentence). */
  text: string;
  documentId: string | null;
  jobId: string | null;
  /** 1-based page and the normalized box (0–1), for a citation. */
  page: number | null;
  boundingBox: { left: number; top: number; width: number; height: number } | null;
  messageId: string | null;
  channel: 'email' | 'sms' | null;
  /** Sender's address or number, for a message. */
  from: string | null;
}

/** What produced the proposal. */
export interface ProposalSource {
  type: 'extraction' | 'email' | 'sms';
  /** Extraction: the job and document; message: the communication id. */
  jobId: string | null;
  documentId: string | null;
  messageId: string | null;
  /** e.g. `TREC 20-18`, or the email's subject. */
  description: string;
}

export interface Proposal {
  id: string;
  transactionId: string;
  /** Only `key_date_change` today. */
  kind: 'key_date_change';
  status: ProposalStatus;
  /** One line, e.g. `ClosingDate 2025-10-03 → 2025-10-17`. */
  summary: string;
  source: ProposalSource;
  /** The change to apply; editable while pending (`PUT /proposals/{id}/payload`). */
  parameters: { keyDates: ProposedKeyDate[] };
  /** What the source proposed, as first made (kept when the parameters are edited). */
  originalParameters: { keyDates: ProposedKeyDate[] };
  /**
   * The deal as the proposal saw it: its version and the value of every key date the proposal touches (null where
   * absent). Approval is refused when one of those dates has changed since (stale).
   */
  basis: { dealVersion: number; keyDates: Record<string, string | null> };
  /** Per key date: how it was computed (extraction calculation notes), or null. */
  calculationNotes: Record<string, string | null>;
  evidence: Evidence[];
  createdAt: string;
  updatedAt: string;
  editedAt: string | null;
  editedBy: string | null;
  decidedAt: string | null;
  decidedBy: string | null;
  rejectionReason: string | null;
  /** The key dates as written by the approval. */
  appliedKeyDates: KeyDate[] | null;
}

const proposalKey = (orgId: string, id: string) => ({ PK: proposalPk(orgId, id), SK: 'PROPOSAL' });

const proposalItem = (orgId: string, p: Proposal) => ({ ...proposalKey(orgId, p.id), entity: 'Proposal', orgId, ...p, GSI1PK: gsi1.proposals(orgId), GSI1SK: `${p.createdAt}#${p.id}` });

/** The conditional `Put` that creates a proposal (a retried producer with the same id creates nothing more). */
export const proposalCreatePut = (orgId: string, p: Proposal): TransactItem => ({
  Put: { TableName: tableName(), Item: proposalItem(orgId, p), ConditionExpression: 'attribute_not_exists(PK)' },
});

/** The `Put` that replaces a pending proposal with `next` (fails unless the stored one is still pending). */
export const proposalPendingPut = (orgId: string, next: Proposal): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: proposalItem(orgId, next),
    ConditionExpression: 'attribute_exists(PK) AND #s = :pending',
    ExpressionAttributeNames: { '#s': 'status' },
    ExpressionAttributeValues: { ':pending': 'pending' },
  },
});

export function toProposal(i: Record<string, any>): Proposal {
  const { PK: _pk, SK: _sk, entity: _e, orgId: _o, GSI1PK: _g, GSI1SK: _gs, ...p } = i;
  return p as Proposal;
}

/** @throws NotFound when absent or another organization's */
export async function getProposal(orgId: string, id: string): Promise<Proposal> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: proposalKey(orgId, id), ConsistentRead: true }));
  if (!out.Item) throw new NotFound('Proposal');
  return toProposal(out.Item);
}

/**
 * A page of proposals, newest first, filtered by status and deal (GSI1; reads only as far as the page needs).
 * @returns the page and whether more match
 */
export async function listProposals(orgId: string, opts: { status?: ProposalStatus; transactionId?: string; limit: number; offset: number }): Promise<{ proposals: Proposal[]; hasMore: boolean }> {
  const filters: string[] = [];
  const values: Record<string, unknown> = { ':pk': gsi1.proposals(orgId) };
  const names: Record<string, string> = {};
  if (opts.status) (filters.push('#s = :s'), (values[':s'] = opts.status), (names['#s'] = 'status'));
  if (opts.transactionId) (filters.push('transactionId = :t'), (values[':t'] = opts.transactionId));
  const found = (
    await queryUpTo(
      {
        TableName: tableName(),
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
        ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
        ExpressionAttributeValues: values,
        ScanIndexForward: false,
      },
      opts.offset + opts.limit + 1,
    )
  ).map(toProposal);
  return { proposals: found.slice(opts.offset, opts.offset + opts.limit), hasMore: found.length > opts.offset + opts.limit };
}
