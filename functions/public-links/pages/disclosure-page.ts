/**
 * `GET|POST /d/{token}`: a disclosure recipient's page. GET lists the package's documents (with a Download button
 * when the package allows downloads) and, when `requireAck`, asks the recipient to acknowledge receipt; each GET
 * records a view (the first also emits `disclosure.recipient_viewed`). POST, from the page's own buttons, either
 * acknowledges (`action=acknowledge` with `confirm=yes`) or downloads one document (`download=<documentId>`: the
 * download is logged, then a 303 to a 5-minute download URL of the documents bucket). The page's CSP names the
 * bucket's origin in `form-action`, since Chromium checks the redirect a form submission follows against it; only a
 * person pressing the button (a POST, which no link scanner or prefetcher sends) records a download
 * (docs/pages.md). The recipient, package and link are re-read on every request, so a revoked recipient or an
 * expired package gets the plain 404 at once. The page carries the organization's branding.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { findPageLink } from '#db/page-links';
import { findDocument, type DocumentRecord } from '#db/documents';
import { getPackageState, recordAcknowledgement, recordDownload, type PackageState } from '#db/disclosures';
import { recordDisclosureView } from '#use-cases/disclosures';
import { pageBranding } from '#use-cases/org-settings';
import { presignGet } from '#ports/blob-store';
import { formFields, html, longDate, notFound, page, seeOther } from './html.ts';

/** Validity of a download URL, seconds. */
export const DISCLOSURE_DOWNLOAD_SECONDS = 300;

/**
 * The origin of the documents bucket's download URLs (the local S3 endpoint, or `https://<bucket>.s3.<region>.amazonaws.com`
 * deployed), read off a URL presigned for one second: whatever addressing style the SDK picks, the page's
 * `form-action` names the origin its download redirects go to. Presigning is computed locally (no request).
 */
async function downloadOrigin(s3Key: string): Promise<string> {
  return new URL(await presignGet(s3Key, 1)).origin;
}

async function live(token: string, now: Date) {
  const link = await findPageLink(token, 'disclosure', now);
  if (!link) return undefined;
  const state: PackageState | undefined = await getPackageState(link.orgId, link.packageId).catch(() => undefined);
  const r = state?.recipients.find((x) => x.id === link.recipientId);
  if (!state || !r || r.revokedAt || state.pkg.status !== 'active') return undefined;
  const ends = [r.expiresAt, state.pkg.expiresAt].filter((x): x is string => !!x);
  if (ends.some((e) => Date.parse(e) <= now.getTime())) return undefined;
  return { link, state, recipient: r };
}

/** Serves the recipient's page. */
export async function disclosurePage(event: APIGatewayProxyEventV2, token: string, now: Date): Promise<APIGatewayProxyStructuredResultV2> {
  const found = await live(token, now);
  if (!found) return notFound();
  const { link, state, recipient } = found;
  const { pkg } = state;
  if (event.requestContext.http.method === 'POST') {
    const form = formFields(event);
    if (form.download) {
      if (!pkg.allowDownloads || !pkg.documentIds.includes(form.download)) return notFound();
      const doc = await findDocument(link.orgId, form.download);
      if (doc?.uploadState !== 'uploaded') return notFound();
      // The URL first: a logged download always had a working URL handed to the browser.
      const url = await presignGet(doc.s3Key, DISCLOSURE_DOWNLOAD_SECONDS, doc.name);
      await recordDownload(link.orgId, pkg.id, recipient.id, doc.id, now);
      return seeOther(url);
    }
    if (form.action === 'acknowledge' && pkg.requireAck) {
      if (form.confirm !== 'yes') return render(found, now, 'Please tick the box to confirm you received the documents.');
      await recordAcknowledgement(link.orgId, pkg.id, recipient.id, now);
      return seeOther(event.rawPath);
    }
    return render(found, now);
  }
  await recordDisclosureView(link.orgId, pkg, recipient, now);
  return render(found, now);
}

async function render(found: NonNullable<Awaited<ReturnType<typeof live>>>, now: Date, ackError?: string): Promise<APIGatewayProxyStructuredResultV2> {
  const { link, state, recipient } = found;
  const { pkg } = state;
  const branding = await pageBranding(link.orgId);
  const docs: DocumentRecord[] = [];
  for (const id of pkg.documentIds) {
    const d = await findDocument(link.orgId, id);
    if (d?.uploadState === 'uploaded') docs.push(d);
  }
  const rows = docs.map(
    (d) =>
      html`<tr><td>${d.name}</td><td>${pkg.allowDownloads ? html`<form method="post" action=""><button class="link" name="download" value="${d.id}" aria-label="Download ${d.name}">Download</button></form>` : html`<span class="help">View only</span>`}</td></tr>`,
  );
  const ack = !pkg.requireAck
    ? ''
    : recipient.acknowledgedAt
      ? html`<p class="notice" role="status">You acknowledged receipt on ${longDate(recipient.acknowledgedAt)}.</p>`
      : html`<h2>Acknowledge receipt</h2><form method="post" action=""><input type="hidden" name="action" value="acknowledge"><label class="check"><input type="checkbox" name="confirm" value="yes" id="confirm">I received and reviewed these documents</label>${ackError ? html`<div class="error" role="alert">${ackError}</div>` : ''}<button type="submit">Acknowledge</button></form>`;
  return page(
    pkg.name,
    html`<h1>${pkg.name}</h1><p>Shared by ${branding?.displayName ?? 'your transaction team'}${recipient.displayLabel ? html` with ${recipient.displayLabel}` : ''}. Available until ${longDate(([recipient.expiresAt, pkg.expiresAt].filter(Boolean) as string[]).sort()[0]!)}.</p>${pkg.coverMessage ? html`<p>${pkg.coverMessage}</p>` : ''}<h2>Documents</h2>${docs.length ? html`<table><tbody>${rows}</tbody></table>` : html`<p>No documents.</p>`}${ack}`,
    branding,
    { status: ackError ? 422 : 200, formTargets: pkg.allowDownloads && docs.length ? [await downloadOrigin(docs[0]!.s3Key)] : [] },
  );
}
