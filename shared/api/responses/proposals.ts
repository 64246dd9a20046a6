/** Response schemas of AI proposals (shared/db/proposals.ts, shared/use-cases/proposals.ts `ProposalView`). */
import * as z from '#api/zod';
import { day, id, nullableString, resource, timestamp } from '#api/responses/common';
import { KeyDate } from '#api/responses/deals';

const keyDates = () => z.object({ keyDates: z.array(z.object({ keyDateType: z.string(), dateValue: day() })) });

export const ProposalEvidence = resource(
  'ProposalEvidence',
  'Why the change is proposed: a citation of the extraction (field, page, text, box) or an excerpt of an inbound email or text.',
  z.object({
    kind: z.enum(['document_citation', 'message_excerpt']),
    keyDateType: z.string(),
    field: nullableString(),
    text: z.string(),
    documentId: z.nullable(id()),
    jobId: z.nullable(id()),
    page: z.nullable(z.int()),
    boundingBox: z.nullable(z.object({ left: z.number(), top: z.number(), width: z.number(), height: z.number() })),
    messageId: z.nullable(id()),
    channel: z.nullable(z.enum(['email', 'sms'])),
    from: nullableString(),
  }),
);

export const Proposal = resource(
  'Proposal',
  'A proposed key-date change awaiting a person: pending → approved | rejected. `stale` (pending only) says a key date it changes moved since it was made; approving it is then refused.',
  z.object({
    id: id(),
    transactionId: id(),
    kind: z.literal('key_date_change'),
    status: z.enum(['pending', 'approved', 'rejected']),
    summary: z.string(),
    source: z.object({ type: z.enum(['extraction', 'email', 'sms']), jobId: z.nullable(id()), documentId: z.nullable(id()), messageId: z.nullable(id()), description: z.string() }),
    parameters: keyDates(),
    originalParameters: keyDates(),
    basis: z.object({ dealVersion: z.int(), keyDates: z.record(z.string(), z.nullable(day())) }),
    calculationNotes: z.record(z.string(), nullableString()),
    evidence: z.array(ProposalEvidence),
    createdAt: timestamp(),
    updatedAt: timestamp(),
    editedAt: z.nullable(timestamp()),
    editedBy: nullableString(),
    decidedAt: z.nullable(timestamp()),
    decidedBy: nullableString(),
    rejectionReason: nullableString(),
    appliedKeyDates: z.nullable(z.array(KeyDate)),
    stale: z.boolean(),
    staleReasons: z.array(z.string()),
  }),
);

/** A page of proposals (`limit`, `offset` as applied; `hasMore` when more match). */
export const proposalPage = () => z.object({ data: z.array(Proposal), limit: z.int(), offset: z.int(), hasMore: z.boolean() });
