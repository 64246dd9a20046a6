/**
 * A deal's links for its client: the intake forms (`GET /transactions/{id}/form-links`), the intake-progress
 * snapshot (`GET .../intake-status`) and the client portal (`GET .../portal-link`). Only a link token's hash is
 * stored, so a link's URL can be shown only when it is issued: each read issues fresh links, and the ones issued
 * before keep working until they expire or are revoked (`DELETE .../portal-link`, `DELETE .../form-links`: every
 * link of that kind issued so far stops working; docs/pages.md).
 */
import { getTransactionHead, type Transaction } from '#db/transactions';
import { createPageLink, newPageToken, pageLinkRevocationPut, type DealLinkKind, type PageTarget } from '#db/page-links';
import { activityPut } from '#db/activity';
import { transactWrite } from '#db/transact';
import { insertSubmission, listSubmissions, type FormSubmission } from '#db/form-submissions';
import { outboxPut } from '#db/outbox';
import { formsForSide, type FormDefinition, type FormValues } from '#domain/intake-forms';
import type { Actor } from '#events/outbox';

/** Days a form link works. */
export const FORM_LINK_DAYS = 30;
/** Days a client-portal link works. */
export const PORTAL_LINK_DAYS = 14;

async function issue(actor: Actor, target: PageTarget, days: number, now: Date): Promise<{ token: string; expiresAt: string }> {
  const token = newPageToken();
  const expiresAt = new Date(now.getTime() + days * 86_400_000).toISOString();
  await createPageLink(token, { ...target, orgId: actor.orgId, expiresAt, createdAt: now.toISOString(), createdBy: actor.userId } as Parameters<typeof createPageLink>[1]);
  return { token, expiresAt };
}

/** A form link as the API shows it. */
export interface FormLink {
  formId: string;
  formName: string;
  formPurpose: string;
  url: string;
  expiresAt: string;
}

/**
 * Issues one link per intake form that applies to the deal's side.
 * @param baseUrl origin of the public pages (`publicBaseUrl`)
 * @throws NotFound when the deal is absent or another organization's
 */
export async function issueFormLinks(actor: Actor, transactionId: string, baseUrl: string, now: Date): Promise<{ transaction: Transaction; links: FormLink[] }> {
  const transaction = await getTransactionHead(actor.orgId, transactionId);
  const links: FormLink[] = [];
  for (const form of formsForSide(transaction.side)) {
    const { token, expiresAt } = await issue(actor, { kind: 'form', transactionId, formId: form.id }, FORM_LINK_DAYS, now);
    links.push({ formId: form.id, formName: form.name, formPurpose: form.purpose, url: `${baseUrl}/f/${token}`, expiresAt });
  }
  return { transaction, links };
}

/** One form's progress on a deal. */
export interface FormProgress {
  formId: string;
  formName: string;
  formPurpose: string;
  status: 'not_submitted' | 'submitted';
  submissionCount: number;
  latestSubmissionId: string | null;
  lastSubmittedAt: string | null;
}

/**
 * The deal's intake progress: each applicable form, whether and when it was last submitted.
 * @throws NotFound when the deal is absent or another organization's
 */
export async function intakeStatus(orgId: string, transactionId: string) {
  const transaction = await getTransactionHead(orgId, transactionId);
  const subs = await listSubmissions(orgId, { transactionId, limit: 500 });
  const forms: FormProgress[] = formsForSide(transaction.side).map((f: FormDefinition) => {
    const mine = subs.filter((s) => s.formDefinitionId === f.id);
    return {
      formId: f.id,
      formName: f.name,
      formPurpose: f.purpose,
      status: mine.length ? 'submitted' : 'not_submitted',
      submissionCount: mine.length,
      latestSubmissionId: mine[0]?.id ?? null,
      lastSubmittedAt: mine[0]?.receivedAt ?? null,
    };
  });
  const submitted = forms.filter((f) => f.status === 'submitted').length;
  return { transactionId, complete: submitted === forms.length, submittedCount: submitted, totalCount: forms.length, forms };
}

/**
 * Issues a client-portal link for the deal, valid `PORTAL_LINK_DAYS`.
 * @throws NotFound when the deal is absent or another organization's
 */
export async function issuePortalLink(actor: Actor, transactionId: string, baseUrl: string, now: Date) {
  await getTransactionHead(actor.orgId, transactionId);
  const { token, expiresAt } = await issue(actor, { kind: 'portal', transactionId }, PORTAL_LINK_DAYS, now);
  return { transactionId, url: `${baseUrl}/p/${token}`, expiresAt, active: true };
}

/** What revoking a deal's links answers. */
export interface LinkRevocation {
  transactionId: string;
  kind: DealLinkKind;
  /** Links of this kind issued at or before this time (ISO) no longer open; the next `GET` issues a working one. */
  revokedAt: string;
}

const REVOKED_SUMMARY: Record<DealLinkKind, string> = {
  portal: 'Client-portal links revoked',
  form: 'Intake-form links revoked',
};

/**
 * Revokes every client-portal (`portal`) or intake-form (`form`) link of the deal issued so far, at once (the next
 * page request gets the plain 404), and records it in the deal's activity. Idempotent: revoking again moves the
 * watermark and revokes nothing more.
 * @throws NotFound when the deal is absent or another organization's
 */
export async function revokeDealLinks(actor: Actor, transactionId: string, kind: DealLinkKind, now: Date): Promise<LinkRevocation> {
  await getTransactionHead(actor.orgId, transactionId);
  const { put } = activityPut(actor.orgId, { transactionId, type: `${kind}_links_revoked`, summary: REVOKED_SUMMARY[kind], details: null, userId: actor.userId }, now);
  await transactWrite([pageLinkRevocationPut(actor.orgId, transactionId, kind, now), put]);
  return { transactionId, kind, revokedAt: now.toISOString() };
}

/**
 * Stores a client's submission of `form` for the deal (values already validated) and emits
 * `form.submission_received`, together.
 */
export async function recordSubmission(orgId: string, transactionId: string, form: FormDefinition, values: FormValues, now: Date): Promise<FormSubmission> {
  return insertSubmission(orgId, transactionId, form, values, now, (s) => [
    outboxPut({ orgId, userId: null }, 'form.submission_received', { submissionId: s.id, formDefinitionId: form.id, formPurpose: form.purpose, transactionId }, now),
  ]);
}
