/**
 * Server-rendered HTML of the public pages (intake form, client portal, disclosure recipient page, the plain 404):
 * one layout, every interpolated value escaped, a strict Content-Security-Policy (no script at all, the one inline
 * stylesheet allowed by its hash, forms posting only to this origin), and no secret in the source: forms post back
 * to the page's own URL (`action=""`), so the link's token never appears in the markup.
 */
import { createHash } from 'node:crypto';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

/** Escapes text for an HTML text node or a double-quoted attribute value. */
export const esc = (s: unknown): string =>
  String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A tagged template that escapes every interpolated value unless it is already `Html`. */
export class Html {
  constructor(readonly value: string) {}
  toString() {
    return this.value;
  }
}
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  values.forEach((v, i) => {
    const part = Array.isArray(v) ? v.map((x) => (x instanceof Html ? x.value : esc(x))).join('') : v instanceof Html ? v.value : esc(v);
    out += part + strings[i + 1]!;
  });
  return new Html(out);
}

const STYLE = `body{font:16px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;background:#f6f7f9;color:#1d2330}
main{max-width:40rem;margin:2rem auto;background:#fff;padding:1.5rem 2rem;border-radius:8px;box-shadow:0 1px 3px #0002}
h1{font-size:1.5rem;margin-top:0}h2{font-size:1.1rem;margin-top:1.5rem}label{display:block;font-weight:600;margin-top:1rem}
input[type=text],input[type=email],input[type=tel],input[type=date],select,textarea{width:100%;box-sizing:border-box;padding:.5rem;border:1px solid #b8bfcc;border-radius:4px;font:inherit}
input[type=checkbox]{margin-right:.5rem}.check{display:flex;align-items:center;font-weight:600;margin-top:1rem}
textarea{min-height:6rem}.help{color:#5a6272;font-size:.9rem}.error{color:#a4161a;font-weight:600}.invalid{border-color:#a4161a!important}
button{margin-top:1.25rem;padding:.6rem 1.2rem;font:inherit;font-weight:600;background:#1f5fbf;color:#fff;border:0;border-radius:4px;cursor:pointer}
button.link{background:none;color:#1f5fbf;padding:0;margin:0;text-decoration:underline;font-weight:400}
table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.4rem;border-bottom:1px solid #e3e6eb}
.notice{background:#eef6ee;border-left:4px solid #2e7d32;padding:.75rem 1rem}.alert{background:#fdecea;border-left:4px solid #a4161a;padding:.75rem 1rem}
footer{color:#5a6272;font-size:.85rem;margin-top:2rem}`;

/** The pages' Content-Security-Policy (also sent as a header). */
export const CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`;

const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy': CSP,
};

/** A whole page. @param status HTTP status (422 for a form sent back with errors) */
export function page(title: string, body: Html, status = 200): APIGatewayProxyStructuredResultV2 {
  const doc = html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title><style>${new Html(STYLE)}</style></head><body><main>${body}<footer>This page is private to you. Please do not forward its link.</footer></main></body></html>`;
  return { statusCode: status, headers: HEADERS, body: doc.value };
}

/**
 * The plain 404 every public route answers for a wrong, expired or revoked link: the same bytes whatever the
 * reason, so it says nothing about whether the link ever existed.
 */
export const notFound = (): APIGatewayProxyStructuredResultV2 =>
  page('Link not available', html`<h1>This link is not available</h1><p>It may have expired. Ask the sender for a new one.</p>`, 404);

/** 303 to `location` (after a POST), with the pages' headers. */
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
