/**
 * `POST /transactions/{id}/draft-message`: a message draft from the caller's intent, the deal's facts and built-in
 * wording (shared/domain/draft-wording.ts). It never sends and writes nothing. There is no language model behind it,
 * and the response says so (`generator: "rules"`).
 */
import { getDeal } from '#db/transactions';
import { getUser } from '#db/orgs';
import type { Actor } from '#events/outbox';
import { dateOf } from '#domain/calendar';
import { draftKindOf, draftWording, humanize, type DraftFacts } from '#domain/draft-wording';

export interface DraftRequest {
  intent: string;
  additionalContext: string | null;
  recipientName: string | null;
  recipientRole: string | null;
}

/** What the rules say about themselves in every draft. */
export const DRAFT_NOTE = "Drafted from built-in wording and this deal's facts; no language model is used. Review and edit before sending.";

/**
 * @returns the draft (`subject`, `bodyText`, `bodyHtml`, `smsText`), the kind of message the intent was read as, the
 *   facts used, `generator: "rules"` and `sent: false`
 * @throws NotFound for a deal that is absent or another organization's
 */
export async function draftDealMessage(actor: Actor, transactionId: string, req: DraftRequest, now: Date) {
  const deal = await getDeal(actor.orgId, transactionId);
  const sender = actor.userId ? await getUser(actor.orgId, actor.userId) : undefined;
  const today = dateOf(now);
  const facts: DraftFacts = {
    address: deal.address,
    status: deal.status,
    side: deal.side,
    upcoming: deal.keyDates.filter((k) => !k.completedAt && k.dateValue >= today).map((k) => ({ label: k.label ?? humanize(k.keyDateType), date: k.dateValue })),
    closingDate: deal.keyDates.find((k) => k.keyDateType === 'ClosingDate')?.dateValue ?? null,
    recipientName: req.recipientName,
    recipientRole: req.recipientRole,
    senderName: [sender?.firstName, sender?.lastName].filter(Boolean).join(' ') || null,
    additionalContext: req.additionalContext,
  };
  const kind = draftKindOf(req.intent);
  const wording = draftWording(kind, facts);
  const notes = [DRAFT_NOTE];
  if (kind === 'general') notes.push('No wording rule matched the intent, so this is a general note: add the substance before sending.');
  return {
    subject: wording.subject,
    bodyText: wording.bodyText,
    bodyHtml: wording.bodyHtml,
    smsText: wording.smsText,
    detectedIntent: kind,
    generator: 'rules' as const,
    sent: false,
    facts: { address: facts.address, status: facts.status, closingDate: facts.closingDate, upcomingKeyDates: facts.upcoming.slice(0, 3) },
    notes,
  };
}
