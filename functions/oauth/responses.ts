/**
 * The OAuth server's responses (functions/oauth/handler.ts): JSON and OAuth errors in OAuth's own shape
 * `{ error, error_description }` (RFC 6749 §5.2), which OAuth clients parse, not the API's envelope; HTML pages that
 * in the shared layout; redirects; and the form body of a POST.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { OAuthError } from '#use-cases/oauth';
import { renderPage } from '#http/pages/layout';
import type { OAuthPage } from './pages.ts';

/** An HTTP API (payload 2.0) response. */
export type Result = APIGatewayProxyStructuredResultV2;

/** A JSON response, never cached, readable cross-origin (OAuth clients run in browsers too). */
export const json = (statusCode: number, body: unknown, extra: Record<string, string> = {}): Result => ({
  statusCode,
  headers: { 'content-type': 'application/json', 'cache-control': 'no-store', 'access-control-allow-origin': '*', ...extra },
  body: JSON.stringify(body),
});
/** An OAuth error response `{ error, error_description }` (RFC 6749 §5.2). */
export const oauthError = (e: OAuthError): Result => json(e.status, { error: e.error, error_description: e.description });

/**
 * An HTML page in the shared layout (shared/http/pages/layout.ts): not framed (clickjacking of the consent button),
 * no script, the one same-origin stylesheet, and `form-action` naming where its form's redirect may go.
 */
export const html = (statusCode: number, page: OAuthPage): Result =>
  renderPage(page.body, { title: page.title, branding: page.branding, formTargets: page.formTargets, status: statusCode });
/** A `302` that is neither cached nor sends a Referer. */
export const redirect = (location: string): Result => ({ statusCode: 302, headers: { location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' }, body: '' });

/** The request body as form fields (`application/x-www-form-urlencoded`). */
export function formOf(event: APIGatewayProxyEventV2): URLSearchParams {
  const raw = event.body ? (event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body) : '';
  return new URLSearchParams(raw);
}
