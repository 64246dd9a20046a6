/**
 * The layout of every HTML page outside the API (functions/public-links/pages/, functions/oauth/pages.ts): the
 * organization's brand header, the one same-origin stylesheet (shared/http/pages/stylesheet.ts), every interpolated
 * value escaped, and a Content-Security-Policy that runs no script and names, for each page, exactly where it may
 * load images (the logo's origin) and where its forms may go, redirects included: Chromium applies `form-action`
 * to every redirect a form submission follows, so a page whose form answers a redirect to another origin (the
 * disclosure download, the OAuth consent) lists that origin (docs/pages.md).
 */
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { Branding } from '#domain/branding';
import { stylesheetHref } from '#http/pages/stylesheet';

/** Escapes text for an HTML text node or a double-quoted attribute value. */
export const esc = (s: unknown): string =>
  String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Markup that `html` inserts as is. */
export class Html {
  constructor(readonly value: string) {}
  toString() {
    return this.value;
  }
}

/** A tagged template that escapes every interpolated value unless it is already `Html` (arrays are joined). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  values.forEach((v, i) => {
    const part = Array.isArray(v) ? v.map((x) => (x instanceof Html ? x.value : esc(x))).join('') : v instanceof Html ? v.value : esc(v);
    out += part + strings[i + 1]!;
  });
  return new Html(out);
}

/**
 * A CSP source for where a form submission may end up: an http(s) URL's origin (`https://bucket.s3.us-east-1.amazonaws.com`)
 * or, for a private-use scheme of a native app's redirect URI (RFC 8252 §7.1), the scheme (`com.example.app:`).
 * @returns undefined for anything that is not safely expressible as one source (never a space, `;` or `,`)
 */
export function formTargetSource(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  const source = u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : /^[a-z][a-z0-9+.-]*:$/.test(u.protocol) ? u.protocol : undefined;
  return source && /^[A-Za-z0-9+.:/\[\]-]+$/.test(source) ? source : undefined;
}

/**
 * The page's Content-Security-Policy.
 * @param opts.logoUrl the logo's https URL (its origin becomes `img-src`); none: no image may load
 * @param opts.formTargets URLs (or their origins) a form's redirect may reach besides this origin
 */
export function pageCsp(opts: { logoUrl?: string | null; formTargets?: readonly string[] } = {}): string {
  const img = opts.logoUrl ? formTargetSource(opts.logoUrl) : undefined;
  const targets = [...new Set((opts.formTargets ?? []).map(formTargetSource).filter((s): s is string => !!s))];
  return [
    "default-src 'none'",
    "style-src 'self'",
    ...(img?.startsWith('https://') ? [`img-src ${img}`] : []),
    `form-action 'self'${targets.map((t) => ` ${t}`).join('')}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** What `renderPage` needs besides the body. */
export interface PageOptions {
  title: string;
  /** Whose page it is; undefined: the neutral look (no brokerage is known yet, e.g. OAuth sign-in). */
  branding?: Branding;
  /** HTTP status (422 for a form sent back with errors, 404 for the plain not-found page). */
  status?: number;
  /** Origins a form's redirect may reach (see `pageCsp`). */
  formTargets?: readonly string[];
  /** The footer line; default: none. */
  footer?: string;
}

/** The brand header: the logo (decorative, the name follows) and the display name. */
const brandHeader = (b: Branding) =>
  html`<header class="brand">${b.logoUrl ? html`<img src="${b.logoUrl}" alt="" height="40">` : ''}<span>${b.displayName}</span></header>`;

/** A whole page with its headers (no caching, no Referer, no framing, no sniffing, the page's CSP). */
export function renderPage(body: Html, opts: PageOptions): APIGatewayProxyStructuredResultV2 {
  const b = opts.branding;
  const doc = html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${opts.title}</title><link rel="stylesheet" href="${stylesheetHref(b?.accentColor ?? '')}"></head><body>${b ? brandHeader(b) : ''}<main>${body}${opts.footer ? html`<footer>${opts.footer}</footer>` : ''}</main></body></html>`;
  return {
    statusCode: opts.status ?? 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'content-security-policy': pageCsp({ logoUrl: b?.logoUrl, formTargets: opts.formTargets }),
    },
    body: doc.value,
  };
}
