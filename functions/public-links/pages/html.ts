/**
 * Helpers of the public pages (intake form, client portal, disclosure recipient page, the plain 404) over the shared
 * layout (shared/http/pages/layout.ts: brand header, the one same-origin stylesheet, escaping, the page's CSP). No
 * secret in the source: forms post back to the page's own URL (`action=""`), so the link's token never appears in
 * the markup.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { Branding } from '#domain/branding';
import { html, renderPage, type Html } from '#http/pages/layout';

export { esc, html, Html } from '#http/pages/layout';

const FOOTER = 'This page is private to you. Please do not forward its link.';

/**
 * A whole public page of an organization.
 * @param opts.status HTTP status (422 for a form sent back with errors); opts.formTargets origins a form's redirect reaches
 */
export function page(title: string, body: Html, branding: Branding | undefined, opts: { status?: number; formTargets?: readonly string[] } = {}): APIGatewayProxyStructuredResultV2 {
  return renderPage(body, { title, branding, footer: FOOTER, ...opts });
}

/**
 * The plain 404 every public route answers for a wrong, expired or revoked link: the same bytes whatever the
 * reason (no organization's branding either), so it says nothing about whether the link ever existed.
 */
export const notFound = (): APIGatewayProxyStructuredResultV2 =>
  page('Link not available', html`<h1>This link is not available</h1><p>It may have expired. Ask the sender for a new one.</p>`, undefined, { status: 404 });

/** 303 to `location` (after a POST), neither cached nor sending a Referer. */
export const seeOther = (location: string): APIGatewayProxyStructuredResultV2 => ({ statusCode: 303, headers: { location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' }, body: '' });

/**
 * The fields of a URL-encoded form body (`application/x-www-form-urlencoded`, what a browser's form posts without
 * JavaScript); a repeated name keeps its last value; any other content type gives no fields.
 */
export function formFields(event: APIGatewayProxyEventV2): Record<string, string> {
  const type = (event.headers?.['content-type'] ?? '').toLowerCase();
  if (!type.startsWith('application/x-www-form-urlencoded') || !event.body) return {};
  const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  const out: Record<string, string> = Object.create(null);
  for (const [k, v] of new URLSearchParams(text)) out[k] = v;
  return out;
}

/** `2026-12-01` → `Tue, Dec 1, 2026` (a key date is a calendar date: formatted in UTC, never shifted). */
export const longDate = (isoDate: string): string =>
  new Date(`${isoDate.slice(0, 10)}T12:00:00Z`).toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
