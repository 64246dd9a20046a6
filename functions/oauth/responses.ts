/**
 * The OAuth server's responses (functions/oauth/handler.ts): JSON and OAuth errors in OAuth's own shape
 * `{ error, error_description }` (RFC 6749 §5.2), which OAuth clients parse, not the API's envelope; HTML pages that
 * may not be framed; redirects; and the form body of a POST.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { OAuthError } from '#use-cases/oauth';

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

/** Pages may not be framed (clickjacking of the consent button) and run no script. */
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};
/** An HTML page with `PAGE_HEADERS`. */
export const html = (statusCode: number, body: string): Result => ({ statusCode, headers: PAGE_HEADERS, body });
/** A `302` that is neither cached nor sends a Referer. */
export const redirect = (location: string): Result => ({ statusCode: 302, headers: { location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' }, body: '' });

/** The request body as form fields (`application/x-www-form-urlencoded`). */
export function formOf(event: APIGatewayProxyEventV2): URLSearchParams {
  const raw = event.body ? (event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body) : '';
  return new URLSearchParams(raw);
}
