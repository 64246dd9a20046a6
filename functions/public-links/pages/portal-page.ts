/**
 * `GET /p/{token}`: the deal's client portal, a read-only page for the client: the deal's status, its upcoming key
 * dates (today onwards, not completed), and the documents shared with them in the deal's active disclosure packages
 * (names only; each package's recipients get their own download page). The link expires (14 days); a deal that is
 * gone answers the plain 404.
 */
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { findPageLink } from '#db/page-links';
import { getDeal } from '#db/transactions';
import { listDealPackages } from '#db/disclosures';
import { findDocument } from '#db/documents';
import { html, longDate, notFound, page } from './html.ts';

/** Key dates shown: the next few. */
const UPCOMING = 8;

/** Label of a key-date type: `InspectionDeadline` → `Inspection deadline`. */
const labelOf = (type: string) => type.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase()).replace(/ ([A-Z])(?=[a-z])/g, (_, c: string) => ` ${c.toLowerCase()}`);

/** Serves the portal of the link. */
export async function portalPage(token: string, now: Date): Promise<APIGatewayProxyStructuredResultV2> {
  const link = await findPageLink(token, 'portal', now);
  const deal = link ? await getDeal(link.orgId, link.transactionId).catch(() => undefined) : undefined;
  if (!link || !deal) return notFound();
  const today = now.toISOString().slice(0, 10);
  const upcoming = deal.keyDates.filter((k) => !k.completedAt && k.dateValue.slice(0, 10) >= today).slice(0, UPCOMING);
  const docs: { name: string; packageName: string }[] = [];
  for (const p of await listDealPackages(link.orgId, deal.id)) {
    if (p.status !== 'active' || (p.expiresAt && Date.parse(p.expiresAt) <= now.getTime())) continue;
    for (const id of p.documentIds) {
      const d = await findDocument(link.orgId, id);
      if (d?.uploadState === 'uploaded') docs.push({ name: d.name, packageName: p.name });
    }
  }
  const dates = upcoming.length
    ? html`<table><thead><tr><th>Date</th><th>What</th></tr></thead><tbody>${upcoming.map((k) => html`<tr><td>${longDate(k.dateValue)}</td><td>${k.label ?? labelOf(k.keyDateType)}</td></tr>`)}</tbody></table>`
    : html`<p>No upcoming dates.</p>`;
  const shared = docs.length ? html`<ul>${docs.map((d) => html`<li>${d.name} <span class="help">(${d.packageName})</span></li>`)}</ul>` : html`<p>No documents shared yet.</p>`;
  return page(
    `Your transaction – ${deal.address}`,
    html`<h1>${deal.address}</h1><p>Status: <strong>${deal.status}</strong>${deal.closedAt ? html` (closed ${longDate(deal.closedAt)})` : ''}</p><h2>Upcoming key dates</h2>${dates}<h2>Shared documents</h2>${shared}<p class="help">Updated ${longDate(today)}. This page is read-only; reply to your agent's email with any questions.</p>`,
  );
}
