/**
 * `GET /p/{token}`: the deal's client portal, a read-only page for the client, in the organization's branding: the
 * deal's status, their agent's contact, the upcoming key dates (today onwards, not completed), the past ones (before
 * today or completed, newest first), and the documents shared with them in the deal's active disclosure packages
 * (names only; each package's recipients get their own download page). The link expires (14 days); a deal that is
 * gone answers the plain 404.
 *
 * The agent is the deal's contact linked with the agent role of the deal's side (`Buyer's Agent` on a Buyer-side deal,
 * `Listing Agent` on a Seller-side one), primary first: the person the client deals with, whose details the team
 * keeps current on the deal. A deal without one shows no agent section.
 */
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { findPageLink } from '#db/page-links';
import { getDeal, type Transaction } from '#db/transactions';
import type { KeyDate } from '#db/key-date-items';
import type { TransactionContact } from '#db/contacts';
import { listDealPackages } from '#db/disclosures';
import { findDocument } from '#db/documents';
import type { Branding } from '#domain/branding';
import { pageBranding } from '#use-cases/org-settings';
import { html, longDate, notFound, page, type Html } from './html.ts';

/** Key dates shown in each section, at most. */
const SHOWN = 8;

/** The agent role that represents the client on a deal of `side`. */
export const AGENT_ROLE: Record<Transaction['side'], string> = { Buyer: "Buyer's Agent", Seller: 'Listing Agent' };

/** Label of a key-date type: `InspectionDeadline` → `Inspection deadline`. */
const labelOf = (type: string) => type.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase()).replace(/ ([A-Z])(?=[a-z])/g, (_, c: string) => ` ${c.toLowerCase()}`);

/**
 * Splits key dates for the portal.
 * @param today `YYYY-MM-DD` (UTC)
 * @returns upcoming: not completed, today or later, soonest first; past: completed or before today, newest first
 *   (each at most `SHOWN`)
 */
export function portalDates(keyDates: readonly KeyDate[], today: string): { upcoming: KeyDate[]; past: KeyDate[] } {
  const isPast = (k: KeyDate) => !!k.completedAt || k.dateValue.slice(0, 10) < today;
  const byDate = (a: KeyDate, b: KeyDate) => a.dateValue.localeCompare(b.dateValue);
  return {
    upcoming: keyDates.filter((k) => !isPast(k)).sort(byDate).slice(0, SHOWN),
    past: keyDates.filter(isPast).sort((a, b) => byDate(b, a)).slice(0, SHOWN),
  };
}

/** The client's agent on the deal (see the module's note), or undefined. */
export const agentOf = (deal: Pick<Transaction, 'side'> & { contacts: readonly TransactionContact[] }): TransactionContact | undefined =>
  deal.contacts.filter((c) => c.role === AGENT_ROLE[deal.side]).sort((a, b) => Number(b.isPrimary) - Number(a.isPrimary))[0];

/** What the portal shows, read from the deal. */
export interface PortalView {
  address: string;
  status: string;
  closedAt: string | null;
  keyDates: readonly KeyDate[];
  agent: TransactionContact | undefined;
  documents: { name: string; packageName: string }[];
  /** `YYYY-MM-DD`. */
  today: string;
}

const dateTable = (dates: KeyDate[], past: boolean): Html =>
  html`<table${past ? html` class="past"` : ''}><thead><tr><th>Date</th><th>What</th></tr></thead><tbody>${dates.map(
    (k) => html`<tr><td>${longDate(k.dateValue)}</td><td>${k.label ?? labelOf(k.keyDateType)}${past && k.completedAt ? html` <span class="help">(completed)</span>` : ''}</td></tr>`,
  )}</tbody></table>`;

const agentCard = (a: TransactionContact): Html =>
  html`<h2>Your agent</h2><div class="contact"><p><strong>${a.name}</strong>${a.company ? html` · ${a.company}` : ''}</p>${a.email ? html`<p>Email: <a href="mailto:${a.email}">${a.email}</a></p>` : ''}${a.phone ? html`<p>Phone: <a href="tel:${a.phone}">${a.phone}</a></p>` : ''}</div>`;

/** The portal page of `view` (pure: no reads). */
export function renderPortal(view: PortalView, branding: Branding | undefined): APIGatewayProxyStructuredResultV2 {
  const { upcoming, past } = portalDates(view.keyDates, view.today);
  const dates: Html[] = [];
  if (upcoming.length || !past.length) dates.push(html`<h2>Upcoming key dates</h2>${upcoming.length ? dateTable(upcoming, false) : html`<p>No key dates yet.</p>`}`);
  if (past.length) dates.push(html`<h2>Past key dates</h2>${dateTable(past, true)}`);
  const shared = view.documents.length ? html`<ul>${view.documents.map((d) => html`<li>${d.name} <span class="help">(${d.packageName})</span></li>`)}</ul>` : html`<p>No documents shared yet.</p>`;
  return page(
    `Your transaction – ${view.address}`,
    html`<h1>${view.address}</h1><p>Status: <strong>${view.status}</strong>${view.closedAt ? html` (closed ${longDate(view.closedAt)})` : ''}</p>${view.agent ? agentCard(view.agent) : ''}${dates}<h2>Shared documents</h2>${shared}<p class="help">Updated ${longDate(view.today)}. This page is read-only; ${view.agent ? 'contact your agent' : "reply to your agent's email"} with any questions.</p>`,
    branding,
  );
}

/** Serves the portal of the link. */
export async function portalPage(token: string, now: Date): Promise<APIGatewayProxyStructuredResultV2> {
  const link = await findPageLink(token, 'portal', now);
  const deal = link ? await getDeal(link.orgId, link.transactionId).catch(() => undefined) : undefined;
  if (!link || !deal) return notFound();
  const documents: PortalView['documents'] = [];
  for (const p of await listDealPackages(link.orgId, deal.id)) {
    if (p.status !== 'active' || (p.expiresAt && Date.parse(p.expiresAt) <= now.getTime())) continue;
    for (const id of p.documentIds) {
      const d = await findDocument(link.orgId, id);
      if (d?.uploadState === 'uploaded') documents.push({ name: d.name, packageName: p.name });
    }
  }
  const view: PortalView = { address: deal.address, status: deal.status, closedAt: deal.closedAt, keyDates: deal.keyDates, agent: agentOf(deal), documents, today: now.toISOString().slice(0, 10) };
  return renderPortal(view, await pageBranding(link.orgId));
}
