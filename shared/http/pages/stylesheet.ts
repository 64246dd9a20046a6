/**
 * The one stylesheet of every HTML page outside the API (intake form, client portal, disclosure page, the OAuth
 * sign-in and consent pages): served from this origin at `GET /assets/pages.css` (lib/public-routes.ts), so the
 * pages' CSP is `style-src 'self'` with no inline style, hash or nonce. The organization's accent arrives as the
 * query parameter `accent` (six hex digits, checked here again: anything else gets the default) and becomes the
 * custom properties `--accent`, `--accent-ink` (text on the accent) and `--accent-text` (the accent as text on
 * white, or the body colour where the accent is too light to read, WCAG 2.2 contrast 4.5:1).
 */
import { createHash } from 'node:crypto';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { contrastRatio, DEFAULT_ACCENT, inkOn, normalizeAccent } from '#domain/branding';

/** Where the stylesheet is served (a public route of functions/public-links/handler.ts). */
export const STYLESHEET_PATH = '/assets/pages.css';

const RULES = `body{font:16px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;background:#f6f7f9;color:#1d2330}
.brand{max-width:40rem;margin:1.5rem auto 0;display:flex;align-items:center;gap:.75rem;padding:0 2rem;min-height:2.5rem}
.brand img{max-height:40px;max-width:10rem;object-fit:contain}.brand span{font-weight:700;font-size:1.05rem;color:var(--accent-text)}
main{max-width:40rem;margin:.75rem auto 2rem;background:#fff;padding:1.5rem 2rem;border-radius:8px;box-shadow:0 1px 3px #0002;border-top:4px solid var(--accent)}
h1{font-size:1.5rem;margin-top:0}h2{font-size:1.1rem;margin-top:1.5rem}label{display:block;font-weight:600;margin-top:1rem}
a{color:var(--accent-text)}
input[type=text],input[type=email],input[type=tel],input[type=date],select,textarea{width:100%;box-sizing:border-box;padding:.5rem;border:1px solid #b8bfcc;border-radius:4px;font:inherit}
input:focus,select:focus,textarea:focus,button:focus-visible,a:focus-visible{outline:3px solid var(--accent);outline-offset:1px}
input[type=checkbox],input[type=radio]{margin-right:.5rem}.check{display:flex;align-items:center;font-weight:600;margin-top:1rem}
fieldset{border:1px solid #e3e6eb;border-radius:4px;margin-top:1rem}fieldset label{font-weight:400;margin-top:.25rem}
textarea{min-height:6rem}.help,.muted{color:#5a6272;font-size:.9rem}.error{color:#a4161a;font-weight:600}.invalid{border-color:#a4161a!important}
button{margin-top:1.25rem;padding:.6rem 1.2rem;font:inherit;font-weight:600;background:var(--accent);color:var(--accent-ink);border:0;border-radius:4px;cursor:pointer}
button.secondary{background:#fff;color:var(--accent-text);border:1px solid #b8bfcc}
button.link{background:none;color:var(--accent-text);padding:0;margin:0;text-decoration:underline;font-weight:400}
table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.4rem;border-bottom:1px solid #e3e6eb}
.past td{color:#5a6272}.contact{border:1px solid #e3e6eb;border-radius:6px;padding:.75rem 1rem}.contact p{margin:.15rem 0}
.notice{background:#eef6ee;border-left:4px solid #2e7d32;padding:.75rem 1rem}.alert{background:#fdecea;border-left:4px solid #a4161a;padding:.75rem 1rem}
li{margin:.3rem 0}footer{color:#5a6272;font-size:.85rem;margin-top:2rem}`;

/** Version of the rules (first 12 hex of their SHA-256): part of every link, so a changed sheet is fetched anew. */
export const STYLESHEET_VERSION = createHash('sha256').update(RULES).digest('hex').slice(0, 12);

/**
 * The stylesheet for an accent.
 * @param accent `#rgb`/`#rrggbb`; anything else gives the default accent's sheet
 */
export function stylesheet(accent: string): string {
  const a = normalizeAccent(accent) ?? DEFAULT_ACCENT;
  const text = contrastRatio(a, '#ffffff') >= 4.5 ? a : '#1d2330';
  return `:root{--accent:${a};--accent-ink:${inkOn(a)};--accent-text:${text}}\n${RULES}\n`;
}

/** The page's link to the stylesheet for `accent` (`#rrggbb`): a same-origin path, cacheable for good. */
export const stylesheetHref = (accent: string): string =>
  `${STYLESHEET_PATH}?v=${STYLESHEET_VERSION}&accent=${(normalizeAccent(accent) ?? DEFAULT_ACCENT).slice(1)}`;

/**
 * `GET /assets/pages.css?accent=<6 hex>`: the sheet, `text/css`, cacheable a year (the link carries the version).
 * @param query the raw query string
 */
export function stylesheetResponse(query: string | undefined): APIGatewayProxyStructuredResultV2 {
  const accent = new URLSearchParams(query ?? '').get('accent') ?? '';
  return {
    statusCode: 200,
    headers: { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'public, max-age=31536000, immutable', 'x-content-type-options': 'nosniff' },
    body: stylesheet(/^[0-9a-fA-F]{6}$/.test(accent) ? `#${accent}` : DEFAULT_ACCENT),
  };
}
